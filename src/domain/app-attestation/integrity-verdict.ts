// Whether a Play Integrity verdict, decoded, lets a code's send through as the genuine app on a genuine device.
//
// Rules it enforces:
// - The verdict is for an app of ANDROID_APPS: `requestDetails.requestPackageName` and `appIntegrity.packageName`
//   both name it, `appIntegrity.appRecognitionVerdict` is PLAY_RECOGNIZED, and `certificateSha256Digest` holds
//   its signing certificate's SHA-256. Otherwise: app_not_recognized.
// - The device meets the least verdict configured (MEETS_STRONG_INTEGRITY includes MEETS_DEVICE_INTEGRITY,
//   which includes MEETS_BASIC_INTEGRITY). Otherwise: device_integrity.
// - The verdict was asked for this send: its `requestHash` is the hex SHA-256 of the binding, or its `nonce`
//   the base64url SHA-256 (with or without padding). Otherwise: wrong_binding.
// - The verdict is fresh: `timestampMillis` at most 2 minutes before now, and not more than 30 seconds after
//   (the device's clock). Otherwise: stale.
import type { AndroidApp } from '../../config/app-settings.ts';
import type { DeviceVerdict } from '../../config/attestation-settings.ts';
import type { IntegrityPayload } from '../../providers/app-attestation/play-integrity.ts';
import { nonceOf, requestHashOf } from './binding.ts';

export type AttestationRefusal =
  | 'app_not_recognized'
  | 'device_integrity'
  | 'stale'
  | 'replayed'
  | 'wrong_binding';

export const VERDICT_MAX_AGE_MS = 120_000;
const CLOCK_SKEW_MS = 30_000;
/** Each verdict and those it includes. */
const MEETS: Record<DeviceVerdict, DeviceVerdict[]> = {
  MEETS_BASIC_INTEGRITY: ['MEETS_BASIC_INTEGRITY', 'MEETS_DEVICE_INTEGRITY', 'MEETS_STRONG_INTEGRITY'],
  MEETS_DEVICE_INTEGRITY: ['MEETS_DEVICE_INTEGRITY', 'MEETS_STRONG_INTEGRITY'],
  MEETS_STRONG_INTEGRITY: ['MEETS_STRONG_INTEGRITY'],
};

const objectAt = (value: unknown, name: string): Record<string, unknown> => {
  const inner =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
  return typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>) : {};
};

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The certificate digests as bytes' hex, whatever base64 they were written in. */
const certificateHex = (digest: string) => Buffer.from(digest, 'base64url').toString('hex');

/** Why the verdict does not let the send through; undefined when it does. */
export function integrityRefusal(
  payload: IntegrityPayload,
  o: { app: AndroidApp; binding: string; least: DeviceVerdict; now: Date },
): AttestationRefusal | undefined {
  const request = objectAt(payload, 'requestDetails');
  const app = objectAt(payload, 'appIntegrity');
  const device = objectAt(payload, 'deviceIntegrity');
  const certificate = o.app.sha256.replaceAll(':', '').toLowerCase();
  const recognized =
    request.requestPackageName === o.app.packageName &&
    app.packageName === o.app.packageName &&
    app.appRecognitionVerdict === 'PLAY_RECOGNIZED' &&
    strings(app.certificateSha256Digest).some((d) => certificateHex(d) === certificate);
  if (!recognized) return 'app_not_recognized';
  const verdicts = strings(device.deviceRecognitionVerdict);
  if (!MEETS[o.least].some((v) => verdicts.includes(v))) return 'device_integrity';
  const nonce = typeof request.nonce === 'string' ? request.nonce.replace(/=+$/, '') : undefined;
  if (request.requestHash !== requestHashOf(o.binding) && nonce !== nonceOf(o.binding))
    return 'wrong_binding';
  const at = Number(request.timestampMillis);
  const now = o.now.getTime();
  if (!Number.isFinite(at) || at < now - VERDICT_MAX_AGE_MS || at > now + CLOCK_SKEW_MS) return 'stale';
  return undefined;
}
