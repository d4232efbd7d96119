// Whether a code's send must come from the genuine app on a genuine device, and how that is checked: Google's
// Play Integrity for ANDROID_APPS, Apple's App Attest for IOS_APPS.
//
// Rules it enforces (at start, every problem named):
// - APP_ATTESTATION is off (the default), prefer or require; prefer and require need at least one app.
// - Android apps are checked through Google's decodeIntegrityToken (PLAY_INTEGRITY_SERVICE_ACCOUNT: the path of
//   a service account's JSON key file holding client_email, private_key and token_uri) or locally for one app
//   (PLAY_INTEGRITY_DECRYPTION_KEY and PLAY_INTEGRITY_VERIFICATION_KEY, the base64 keys of the Play Console: a
//   32-byte AES key and an EC P-256 public key). With attestation on and Android apps named, one of the two
//   is required; the local keys serve exactly one app.
// - PLAY_INTEGRITY_DEVICE_VERDICT is MEETS_BASIC_INTEGRITY, MEETS_DEVICE_INTEGRITY (the default) or
//   MEETS_STRONG_INTEGRITY: the least a device must meet.
// - APP_ATTEST_ENVIRONMENT is production (the default) or development: which App Attest AAGUID counts.
// - APP_ATTEST_ROOT_CA (a PEM file standing in for Apple's root, for tests) is refused in production.
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { AppSettings } from './app-settings.ts';
import type { EnvReader } from './env-reader.ts';

export const ATTESTATION_MODES = ['off', 'prefer', 'require'] as const;
export type AttestationMode = (typeof ATTESTATION_MODES)[number];
export const DEVICE_VERDICTS = [
  'MEETS_BASIC_INTEGRITY',
  'MEETS_DEVICE_INTEGRITY',
  'MEETS_STRONG_INTEGRITY',
] as const;
export type DeviceVerdict = (typeof DEVICE_VERDICTS)[number];

/** A Google service account, as its JSON key file holds it. */
export interface ServiceAccount {
  clientEmail: string;
  privateKeyPem: string;
  privateKeyId?: string;
  tokenUri: string;
}

export interface AttestationSettings {
  mode: AttestationMode;
  playIntegrity: {
    serviceAccount?: ServiceAccount;
    /** https://playintegrity.googleapis.com, or a local server in tests */
    apiUrl: string;
    /** the Play Console's keys, for local decoding: base64 */
    decryptionKey?: string;
    verificationKey?: string;
    deviceVerdict: DeviceVerdict;
  };
  appAttest: {
    environment: 'production' | 'development';
    /** a PEM root standing in for Apple's (tests only) */
    rootCaPem?: string;
  };
}

function serviceAccount(r: EnvReader): ServiceAccount | undefined {
  const name = 'PLAY_INTEGRITY_SERVICE_ACCOUNT';
  const path = r.str(name);
  if (path === undefined) return undefined;
  try {
    const key = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    const { client_email, private_key, private_key_id, token_uri } = key;
    if (
      typeof client_email === 'string' &&
      typeof private_key === 'string' &&
      typeof token_uri === 'string'
    ) {
      createPrivateKey(private_key);
      const id = typeof private_key_id === 'string' ? { privateKeyId: private_key_id } : {};
      return { clientEmail: client_email, privateKeyPem: private_key, tokenUri: token_uri, ...id };
    }
  } catch {}
  r.problems.push(
    `${name} must be the path of a service account's JSON key file (client_email, private_key, token_uri)`,
  );
  return undefined;
}

/** The Play Console's local keys, each checked for what it must be. */
function localKeys(r: EnvReader) {
  const decryptionKey = r.str('PLAY_INTEGRITY_DECRYPTION_KEY');
  const verificationKey = r.str('PLAY_INTEGRITY_VERIFICATION_KEY');
  if (decryptionKey !== undefined && Buffer.from(decryptionKey, 'base64').length !== 32)
    r.problems.push(
      'PLAY_INTEGRITY_DECRYPTION_KEY must be the base64 of a 32-byte AES key, as the Play Console gives it',
    );
  if (verificationKey !== undefined) {
    try {
      const key = createPublicKey({
        key: Buffer.from(verificationKey, 'base64'),
        format: 'der',
        type: 'spki',
      });
      if (key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error();
    } catch {
      r.problems.push(
        'PLAY_INTEGRITY_VERIFICATION_KEY must be the base64 of an EC P-256 public key, as the Play Console gives it',
      );
    }
  }
  if ((decryptionKey === undefined) !== (verificationKey === undefined))
    r.problems.push('PLAY_INTEGRITY_DECRYPTION_KEY and PLAY_INTEGRITY_VERIFICATION_KEY go together');
  return { decryptionKey, verificationKey };
}

function rootCa(r: EnvReader, production: boolean): string | undefined {
  const path = r.str('APP_ATTEST_ROOT_CA');
  if (path === undefined) return undefined;
  if (production)
    r.problems.push('APP_ATTEST_ROOT_CA is not allowed when APP_ENV=production: Apple’s root is used');
  try {
    const pem = existsSync(path) ? readFileSync(path, 'utf8') : path;
    new X509Certificate(pem);
    return pem;
  } catch {
    r.problems.push('APP_ATTEST_ROOT_CA must be a PEM certificate (or the path of a file holding one)');
    return undefined;
  }
}

export function attestationSettings(
  r: EnvReader,
  apps: AppSettings,
  production: boolean,
): AttestationSettings {
  const mode = r.oneOf('APP_ATTESTATION', ATTESTATION_MODES, 'off');
  const { decryptionKey, verificationKey } = localKeys(r);
  const playIntegrity = {
    serviceAccount: serviceAccount(r),
    apiUrl: r.url('PLAY_INTEGRITY_API_URL', 'https://playintegrity.googleapis.com'),
    decryptionKey,
    verificationKey,
    deviceVerdict: r.oneOf('PLAY_INTEGRITY_DEVICE_VERDICT', DEVICE_VERDICTS, 'MEETS_DEVICE_INTEGRITY'),
  };
  const appCount = apps.androidApps.length + apps.iosApps.length;
  if (mode !== 'off' && appCount === 0)
    r.problems.push(`APP_ATTESTATION=${mode} needs ANDROID_APPS or IOS_APPS`);
  const checksAndroid = playIntegrity.serviceAccount || decryptionKey;
  if (mode !== 'off' && apps.androidApps.length && !checksAndroid)
    r.problems.push(
      `APP_ATTESTATION=${mode} with ANDROID_APPS needs PLAY_INTEGRITY_SERVICE_ACCOUNT, or PLAY_INTEGRITY_DECRYPTION_KEY and PLAY_INTEGRITY_VERIFICATION_KEY`,
    );
  if (decryptionKey && apps.androidApps.length > 1 && !playIntegrity.serviceAccount)
    r.problems.push(
      'the Play Console’s local keys serve one app: with several ANDROID_APPS, set PLAY_INTEGRITY_SERVICE_ACCOUNT',
    );
  return {
    mode,
    playIntegrity,
    appAttest: {
      environment: r.oneOf('APP_ATTEST_ENVIRONMENT', ['production', 'development'] as const, 'production'),
      rootCaPem: rootCa(r, production),
    },
  };
}
