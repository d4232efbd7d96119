// The native apps this service serves: Android apps by package and signing certificate, iOS apps by team and
// bundle. They name the apps in the `.well-known` files, the passkey origins Android reports, and the apps
// whose attestations count.
//
// Rules it enforces (at start, every problem named):
// - ANDROID_APPS is a comma-separated list of `package.name:SHA256`, the signing certificate's SHA-256
//   fingerprint as Play Console shows it (32 hexadecimal pairs joined by colons), with an optional third
//   field, the 11-character app hash Android's SMS Retriever computes (`package.name:SHA256:hash`).
// - IOS_APPS is a comma-separated list of `TEAMID.bundle.id`: a 10-character team id, a dot, a bundle id.
// - An app is named once.

import { createHash } from 'node:crypto';
import type { EnvReader } from './env-reader.ts';

export interface AndroidApp {
  packageName: string;
  /** the signing certificate's SHA-256, `AB:CD:...` in upper case */
  sha256: string;
  /** SMS Retriever's 11-character hash of the app, where given */
  smsHash?: string;
}

export interface IosApp {
  /** `TEAMID.bundle.id`, as App Attest and the association file name it */
  appId: string;
  teamId: string;
  bundleId: string;
}

export interface AppSettings {
  androidApps: readonly AndroidApp[];
  iosApps: readonly IosApp[];
}

const ANDROID_APP =
  /^([a-zA-Z][\w]*(?:\.[a-zA-Z][\w]*)+):((?:[0-9A-Fa-f]{2}:){31}[0-9A-Fa-f]{2})(?::([A-Za-z0-9+/]{11}))?$/;
const IOS_APP = /^([A-Z0-9]{10})\.([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)$/;

/** The items of a comma-separated setting, trimmed, as written. */
const itemsOf = (r: EnvReader, name: string) =>
  (r.str(name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

/** The origin Android puts in a passkey's client data for an app signed with this certificate. */
export const androidOrigin = (app: AndroidApp) =>
  `android:apk-key-hash:${Buffer.from(app.sha256.replaceAll(':', ''), 'hex').toString('base64url')}`;

export function appSettings(r: EnvReader): AppSettings {
  const androidApps: AndroidApp[] = [];
  for (const entry of itemsOf(r, 'ANDROID_APPS')) {
    const m = ANDROID_APP.exec(entry);
    if (!m) {
      r.problems.push(
        `ANDROID_APPS: "${entry}" must be package.name:SHA256 (AB:CD:… as Play Console shows it)`,
      );
      continue;
    }
    if (androidApps.some((a) => a.packageName === m[1]))
      r.problems.push(`ANDROID_APPS: ${m[1]} is named twice`);
    androidApps.push({ packageName: m[1], sha256: m[2].toUpperCase(), ...(m[3] ? { smsHash: m[3] } : {}) });
  }
  const iosApps: IosApp[] = [];
  for (const entry of itemsOf(r, 'IOS_APPS')) {
    const m = IOS_APP.exec(entry);
    if (!m) r.problems.push(`IOS_APPS: "${entry}" must be TEAMID.bundle.id (a 10-character team id)`);
    else if (iosApps.some((a) => a.appId === entry)) r.problems.push(`IOS_APPS: ${entry} is named twice`);
    else iosApps.push({ appId: entry, teamId: m[1], bundleId: m[2] });
  }
  return { androidApps, iosApps };
}

/** App Attest's relying party id hash of an iOS app: the SHA-256 of `TEAMID.bundle.id`. */
export const appIdHash = (app: IosApp) => createHash('sha256').update(app.appId).digest();

/**
 * A WhatsApp template's one-tap or zero-tap button fills the code into the apps of ANDROID_APPS that give their
 * SMS Retriever hash: such a button with no such app is a problem.
 */
export function autofillProblems(
  providers: ReadonlyArray<Record<string, unknown>>,
  apps: AppSettings,
): string[] {
  const hashed = apps.androidApps.some((a) => a.smsHash);
  return providers
    .filter((p) => (p.otp_type === 'one_tap' || p.otp_type === 'zero_tap') && !hashed)
    .map(
      (p) =>
        `MESSAGING_CONFIG: providers.${String(p.name)}.otp_type ${String(p.otp_type)} needs an ANDROID_APPS entry with its SMS Retriever hash (package.name:SHA256:hash)`,
    );
}
