import type { OtpService } from '../domain/codes/otp.ts';
import { type OperatorClientKey, operatorClientKey } from '../domain/network-verification/client-key.ts';
import { NetworkVerificationService } from '../domain/network-verification/network-verification.ts';
import { NetworkProofsReport } from '../domain/network-verification/proofs-report.ts';
import type { PurposeKeys } from '../domain/purpose-keys.ts';
import type { SendDefence } from '../domain/sms-defence/send-defence.ts';
import { CamaraNumberVerification } from '../providers/network-verification/camara.ts';
import type { NetworkVerifier } from '../providers/network-verification/network-verifier.ts';
import { TwilioSilentNetworkAuth } from '../providers/network-verification/twilio.ts';
import { VonageSilentAuth } from '../providers/network-verification/vonage.ts';
import type { Foundation } from './foundation.ts';

/** Where the operator sends the device back, at the service's own address. */
export const NETWORK_CALLBACK_PATH = '/auth/network/callback';

/**
 * The silent checks by the mobile network, by the configured provider (none: every proof is a code), and the
 * key Callsign signs its requests to the operator with.
 */
export async function networkVerificationFor(
  f: Foundation,
  parts: { otp: OtpService; defence: SendDefence; operatorKeys: PurposeKeys },
): Promise<{
  networkVerification: NetworkVerificationService;
  networkProofs: NetworkProofsReport;
  operatorKey?: OperatorClientKey;
}> {
  const { config, db, clock, random } = f;
  const { provider, countries, dailyLimit, timeoutMs, prices } = config.networkVerification;
  const now = () => clock.now();
  const operatorKey =
    provider?.kind === 'camara'
      ? await operatorClientKey({ db, clock, sealing: parts.operatorKeys }, provider.privateKeyPem)
      : undefined;
  let verifier: NetworkVerifier | undefined;
  if (provider?.kind === 'camara' && operatorKey)
    verifier = new CamaraNumberVerification(provider, operatorKey, now, timeoutMs);
  if (provider?.kind === 'vonage')
    verifier = new VonageSilentAuth(
      { ...provider, brand: config.look.brand.name ?? 'Callsign' },
      now,
      timeoutMs,
    );
  if (provider?.kind === 'twilio') verifier = new TwilioSilentNetworkAuth(provider, timeoutMs);
  const networkVerification = new NetworkVerificationService({
    ...{ db, clock, random, verifier, countries, dailyLimit, prices },
    callbackUrl: `${config.authUrl}${NETWORK_CALLBACK_PATH}`,
    sealing: f.keysFor('network-verifications'),
    otp: parts.otp,
    defence: parts.defence,
    signInMethods: config.signInMethods,
    enumerationProtection: config.enumerationProtection,
    checks: f.metrics.networkVerifications,
  });
  return { networkVerification, networkProofs: new NetworkProofsReport({ db, clock }), operatorKey };
}
