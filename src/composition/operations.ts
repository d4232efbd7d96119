import { accountPageClient } from '../domain/clients/account-page-client.ts';
import { ClientRegistration } from '../domain/clients/client-registration.ts';
import { ClientService } from '../domain/clients/clients.ts';
import { ConnectedApps } from '../domain/clients/connected-apps.ts';
import { LogoService } from '../domain/clients/logos.ts';
import { UserImport } from '../domain/imports/user-import.ts';
import { KycService } from '../domain/kyc/kyc.ts';
import { AuthorizationService } from '../domain/oauth/authorization.ts';
import { AuthorizationRequests } from '../domain/oauth/authorization-requests.ts';
import { ClientAuthenticator } from '../domain/oauth/client-authentication.ts';
import { ClientKeySets } from '../domain/oauth/client-key-sets.ts';
import { ClientTokens } from '../domain/oauth/client-tokens.ts';
import { DeviceAuthorizations } from '../domain/oauth/device-authorizations.ts';
import { Dpop } from '../domain/oauth/dpop.ts';
import type { GrantDeps } from '../domain/oauth/grants/index.ts';
import { TokenEndpointService } from '../domain/oauth/token-endpoint.ts';
import { AdminUserService } from '../domain/operators/admin-users.ts';
import { CodeEconomics } from '../domain/operators/code-economics.ts';
import { ConsoleSessionService } from '../domain/operators/console-sessions.ts';
import type { PurposeKeys } from '../domain/purpose-keys.ts';
import type { KeyRing } from '../domain/sessions/key-ring.ts';
import type { SessionService } from '../domain/sessions/sessions.ts';
import { SecurityEventTokens } from '../domain/signals/security-event-tokens.ts';
import { Signals } from '../domain/signals/signals.ts';
import { WebhookEndpointService } from '../domain/webhooks/webhook-endpoints.ts';
import { manualKycProvider } from '../providers/kyc/kyc-provider.ts';
import { sandboxKycProvider } from '../providers/kyc/sandbox.ts';
import { imageFetcher, jwksFetcher } from '../providers/outbound-get.ts';
import { CodeExchanges } from '../storage/batches/code-exchanges.ts';
import type { Foundation } from './foundation.ts';

/** The services of clients and operators: OAuth clients and tokens, webhooks, KYC, the console. */
export function clientAndOperatorServices(
  f: Foundation,
  sessions: SessionService,
  sealing: {
    webhookSecrets: PurposeKeys;
    kycPhotos: PurposeKeys;
    dpopNonces: PurposeKeys;
    signingKeys: KeyRing;
    ssfHeaders: PurposeKeys;
  },
) {
  const { config, db, clock, random, events, tokens } = f;
  const allowPrivateNetworks = config.webhookAllowPrivateNetworks;
  const fetchImage = imageFetcher({ allowPrivateNetworks });
  const logos = new LogoService({ db, clock, fetchImage, logger: f.logger });
  const accountPage = accountPageClient(config.look.brand.name ?? 'Callsign', config.authUrl, clock.now());
  const clients = new ClientService({
    db,
    clock,
    random,
    sessions,
    allowPrivateNetworks,
    logos,
    accountPage,
  });
  const connectedApps = new ConnectedApps({ db, clock, sessions });
  const webhooks = new WebhookEndpointService({
    db,
    clock,
    random,
    secretKeys: sealing.webhookSecrets,
    allowPrivateNetworks,
  });
  const kyc = new KycService({
    db,
    clock,
    random,
    events,
    // loadConfig refuses the sandbox in production
    provider: config.kycProvider === 'sandbox' ? sandboxKycProvider : manualKycProvider,
    verifyUrl: config.verifyUrl,
    photoKeys: sealing.kycPhotos,
  });
  const codeExchanges = new CodeExchanges(db);
  const authorization = new AuthorizationService({ db, clock, random });
  const { signalPush, ...oauthProtocol } = oauthProtocolServices(f, clients, authorization, sealing);
  const { dpop, deviceAuthorizations, clientTokens } = oauthProtocol;
  return {
    // client authentication by key, request objects and PAR, DPoP, self-registration, the device grant
    oauthProtocol,
    // what pushed Shared Signals are made and sent with
    signalPush,
    logos,
    clients,
    connectedApps,
    webhooks,
    kyc,
    authorization,
    oauthTokens: new TokenEndpointService({
      ...{ db, clock, clients, sessions, tokens, codeExchanges },
      ...{ dpop, clientTokens },
    }),
    tokenGrants: {
      ...{ db, clock, sessions, tokens, codeExchanges },
      ...{ deviceAuthorizations, clientTokens },
    } satisfies GrantDeps,
    operators: {
      adminUsers: new AdminUserService({ db, clock, sessions, kyc, connectedApps, events }),
      userImport: new UserImport({ db, clock, random, events }),
      consoleSessions: new ConsoleSessionService({ db, clock, random, adminToken: config.adminToken ?? '' }),
      codeEconomics: new CodeEconomics({ db, clock }),
    },
  };
}

/**
 * Client authentication by key, request objects and PAR, DPoP, self-registration, the device grant and the
 * Shared Signals transmitter.
 */
function oauthProtocolServices(
  f: Foundation,
  clients: ClientService,
  authorization: AuthorizationService,
  keys: { dpopNonces: PurposeKeys; signingKeys: KeyRing; ssfHeaders: PurposeKeys },
) {
  const { config, db, clock, random, tokens } = f;
  const allowPrivateNetworks = config.webhookAllowPrivateNetworks;
  const { accessTokenAlg } = config.oauth;
  const keySets = new ClientKeySets({ clock, fetchJwks: jwksFetcher({ allowPrivateNetworks }) });
  const clientAuthenticator = new ClientAuthenticator({
    db,
    clock,
    keySets,
    clients,
    issuer: config.baseUrl,
    tokenEndpoint: `${config.baseUrl}/oauth/token`,
    fapiProfile: config.oauth.fapiProfile,
  });
  const authorizationRequests = new AuthorizationRequests({
    db,
    clock,
    random,
    keySets,
    findClient: (id) => clients.findClient(id),
    idTokenHint: (token) => tokens.idTokenHint(token),
    audiences: [config.baseUrl, `${config.authUrl}/authorize`],
    requirePar: config.oauth.requirePar,
    fapiProfile: config.oauth.fapiProfile,
  });
  const dpop = new Dpop({
    db,
    clock,
    nonceKeys: keys.dpopNonces,
    nonceRequired: config.oauth.dpopNonceRequired,
  });
  const clientRegistration = new ClientRegistration({
    db,
    clock,
    random,
    clients,
    openRegistration: config.oauth.openRegistration,
  });
  const deviceAuthorizations = new DeviceAuthorizations({
    db,
    clock,
    random,
    authorization,
    ttlSeconds: config.oauth.deviceCodeTtlSeconds,
    verificationUri: `${config.authUrl}/device`,
  });
  const securityEventTokens = new SecurityEventTokens(keys.signingKeys, config.baseUrl);
  const signals = new Signals({
    ...{ db, clock, random, issuer: config.baseUrl, baseUrl: config.baseUrl },
    tokens: securityEventTokens,
    headerKeys: keys.ssfHeaders,
    allowPrivateNetworks,
  });
  return {
    dpop,
    deviceAuthorizations,
    clientTokens: new ClientTokens(keys.signingKeys, clock, random, config.baseUrl, dpop, accessTokenAlg),
    signals,
    signalPush: { tokens: securityEventTokens, headerKeys: keys.ssfHeaders },
    clientRegistration,
    authorizationRequests,
    clientKeySets: keySets,
    clientAuthenticator,
  };
}
