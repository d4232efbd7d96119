import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import type { AccountDeletionService } from '../domain/accounts/account-deletion.ts';
import type { AccountService } from '../domain/accounts/accounts.ts';
import type { CodeSignIn } from '../domain/accounts/code-sign-in.ts';
import type { PhoneChangeService } from '../domain/accounts/phone-change.ts';
import type { PinChangeService } from '../domain/accounts/pin-change.ts';
import type { RecoveryCodeService } from '../domain/accounts/recovery-codes.ts';
import type { RecoverySignIn } from '../domain/accounts/recovery-sign-in.ts';
import type { SignIn } from '../domain/accounts/sign-in.ts';
import type { AppAttestation } from '../domain/app-attestation/app-attestation.ts';
import type { ClientRegistration } from '../domain/clients/client-registration.ts';
import type { ClientService } from '../domain/clients/clients.ts';
import type { ConnectedApps } from '../domain/clients/connected-apps.ts';
import type { LogoService } from '../domain/clients/logos.ts';
import type { OtpService } from '../domain/codes/otp.ts';
import type { UserImport } from '../domain/imports/user-import.ts';
import type { KycService } from '../domain/kyc/kyc.ts';
import type { MessageRecords } from '../domain/messaging/message-records.ts';
import type { Messenger } from '../domain/messaging/messenger.ts';
import type { MessageReceipts } from '../domain/messaging/receipts.ts';
import type { SendQueue } from '../domain/messaging/send-queue.ts';
import type { OperatorClientKey } from '../domain/network-verification/client-key.ts';
import type { NetworkVerificationService } from '../domain/network-verification/network-verification.ts';
import type { NetworkProofsReport } from '../domain/network-verification/proofs-report.ts';
import type { AuthorizationService } from '../domain/oauth/authorization.ts';
import type { AuthorizationRequests } from '../domain/oauth/authorization-requests.ts';
import type { ClientAuthenticator } from '../domain/oauth/client-authentication.ts';
import type { ClientKeySets } from '../domain/oauth/client-key-sets.ts';
import type { ClientTokens } from '../domain/oauth/client-tokens.ts';
import type { DeviceAuthorizations } from '../domain/oauth/device-authorizations.ts';
import type { Dpop } from '../domain/oauth/dpop.ts';
import type { GrantDeps } from '../domain/oauth/grants/index.ts';
import type { TokenEndpointService } from '../domain/oauth/token-endpoint.ts';
import type { AdminActionLog } from '../domain/operators/admin-actions.ts';
import type { AdminUserService } from '../domain/operators/admin-users.ts';
import type { CodeEconomics } from '../domain/operators/code-economics.ts';
import type { ConsoleSessionService } from '../domain/operators/console-sessions.ts';
import type { KeyReencryption } from '../domain/operators/key-reencryption.ts';
import type { PasskeySignIn } from '../domain/passkeys/passkey-sign-in.ts';
import type { PasskeyService } from '../domain/passkeys/passkeys.ts';
import type { PhoneRiskService } from '../domain/phone-risk/phone-risk.ts';
import type { ApiUserService } from '../domain/profiles/api-users.ts';
import type { AvatarService } from '../domain/profiles/avatars.ts';
import type { ProfileService } from '../domain/profiles/profiles.ts';
import type { PurposeKeys } from '../domain/purpose-keys.ts';
import type { RateLimiter } from '../domain/rate-limiter.ts';
import type { AccessTokens } from '../domain/sessions/access-tokens.ts';
import type { KeyRing } from '../domain/sessions/key-ring.ts';
import type { SessionService } from '../domain/sessions/sessions.ts';
import type { Signals } from '../domain/signals/signals.ts';
import type { SmsBreaker } from '../domain/sms-defence/breaker.ts';
import type { PersonCheck } from '../domain/sms-defence/person-check.ts';
import type { SendDefence } from '../domain/sms-defence/send-defence.ts';
import type { WebhookEndpointService } from '../domain/webhooks/webhook-endpoints.ts';
import type { Metrics } from '../observability/metrics.ts';
import type { Tracing } from '../observability/tracing.ts';
import type { Clock } from '../providers/clock.ts';
import type { ReceiptReader } from '../providers/messaging/receipts/receipt.ts';
import type { TemplateReport } from '../providers/messaging/whatsapp-templates.ts';
import type { Random } from '../providers/random.ts';
import type { Database } from '../storage/db.ts';
import type { BackchannelLogoutWorker } from '../workers/backchannel-logout.ts';
import type { WorkerRunner } from '../workers/runner.ts';
import type { SsfPushWorker } from '../workers/ssf-push.ts';
import type { WebhookDeliveryWorker } from '../workers/webhook-delivery.ts';

// Every service the HTTP surfaces, the workers and the command line are given, by name.
export interface Container {
  config: Config;
  logger: Logger;
  db: Database;
  redis: Redis | undefined;
  clock: Clock;
  random: Random;
  keys: KeyRing;
  rateLimiter: RateLimiter;
  otp: OtpService;
  /** the sends that leave a request's path, waited for as the service stops */
  sendQueue: SendQueue;
  /** carries codes and notices to phones by the configured routes */
  messenger: Messenger;
  /** the messages sent, as operators read them */
  messageRecords: MessageRecords;
  /** applies the providers' delivery receipts */
  messageReceipts: MessageReceipts;
  /** how each provider's receipts are checked, by its configured name */
  receiptReaders: ReadonlyMap<string, ReceiptReader>;
  /** the SMS defence's proof of a person: proof-of-work challenges, or a hosted CAPTCHA */
  challenges: PersonCheck;
  /** the SMS defence's country breaker, as operators see and override it */
  smsBreaker: SmsBreaker;
  /** the SMS defence itself: what a code's send must pass, and the refusals it counts per country */
  defence: SendDefence;
  sessions: SessionService;
  accounts: AccountService;
  /** one sign-in, whatever proved it: a PIN, a code, a passkey or a recovery code */
  signIn: SignIn;
  /** a person's passkeys, and signing in with one */
  passkeys: PasskeyService;
  passkeySignIn: PasskeySignIn;
  codeSignIn: CodeSignIn;
  /** codes that reset the PIN without the phone */
  recoveryCodes: RecoveryCodeService;
  recoverySignIn: RecoverySignIn;
  /** the SIM swap and recycling checks before a code signs in or resets a PIN */
  phoneRisk: PhoneRiskService;
  /** the silent checks of a number by its mobile network, before a code */
  networkVerification: NetworkVerificationService;
  /** the WhatsApp authentication templates created or checked at start (what each language's came to) */
  whatsappTemplates: Promise<TemplateReport[]>;
  /** apps' attestations of a code's send (Play Integrity, App Attest), and an iOS key's registration */
  appAttestation: AppAttestation;
  /** what operators see of the silent checks: per country, and one by one */
  networkProofs: NetworkProofsReport;
  /** the key of Callsign's requests to the operator, where a provider is configured */
  operatorClientKey: OperatorClientKey | undefined;
  profiles: ProfileService;
  clients: ClientService;
  authorization: AuthorizationService;
  /** The apps a user allowed, and withdrawing that */
  connectedApps: ConnectedApps;
  oauthTokens: TokenEndpointService;
  /** clients that register themselves (RFC 7591, 7592), and the operator's initial access tokens */
  clientRegistration: ClientRegistration;
  /** DPoP proofs (RFC 9449) and the server's nonces */
  dpop: Dpop;
  /** devices that sign in by a code the person types on the verification page (RFC 8628) */
  deviceAuthorizations: DeviceAuthorizations;
  /** the Shared Signals transmitter: each client's event streams and their delivery */
  signals: Signals;
  /** a client's own access tokens (client_credentials) */
  clientTokens: ClientTokens;
  /** authorization requests as sent, signed (request objects) or pushed first (PAR), checked alike */
  authorizationRequests: AuthorizationRequests;
  /** who a client is, at the endpoints where it authenticates (a secret or a signed assertion) */
  clientAuthenticator: ClientAuthenticator;
  /** the public keys clients sign with, registered or fetched from their jwks_uri */
  clientKeySets: ClientKeySets;
  /** what the token endpoint's grants use (domain/oauth/grants/) */
  tokenGrants: GrantDeps;
  /** seals the authorization page's state into its forms */
  pageStateKeys: PurposeKeys;
  reencryption: KeyReencryption;
  adminActions: AdminActionLog;
  /** A secret of this process by which the admin API knows the console's in-process calls */
  consoleCallMark: string;
  deletion: AccountDeletionService;
  pinChange: PinChangeService;
  phoneChange: PhoneChangeService;
  apiUsers: ApiUserService;
  avatars: AvatarService;
  tokens: AccessTokens;
  webhooks: WebhookEndpointService;
  kyc: KycService;
  /** client and instance logos, fetched once and served from here */
  logos: LogoService;
  adminUsers: AdminUserService;
  /** accounts brought from another identity provider */
  userImport: UserImport;
  /** the console's sign-ins (only with ADMIN_TOKEN) */
  consoleSessions: ConsoleSessionService;
  /** sends due webhook deliveries; the worker runner starts and stops it */
  deliveries: WebhookDeliveryWorker;
  /** Sends due back-channel logouts; the worker runner starts and stops it */
  backchannelLogouts: BackchannelLogoutWorker;
  /** pushes Shared Signals to the streams that take them by push */
  ssfPushes: SsfPushWorker;
  /** periodic jobs and webhook delivery; `callsign serve` and `callsign worker` start it */
  worker: WorkerRunner;
  /** the service's Prometheus counters and histograms */
  metrics: Metrics;
  /** the economics of codes: sent, delivered, entered, refused, fell back, proven silently, and their cost */
  codeEconomics: CodeEconomics;
  /** OpenTelemetry traces, where an OTLP endpoint is set: `flush` exports what has ended */
  tracing: Tracing | undefined;
  close(): Promise<void>;
}
