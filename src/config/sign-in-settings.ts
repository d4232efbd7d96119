// How people sign in, and the relying party that passkeys are bound to.
//
// Rules it enforces (at start, every problem named):
// - SIGNIN_METHODS lists the ways of signing in that are on, from `pin`, `passkey` and `code`; at least one.
// - WEBAUTHN_RP_ID is a domain name (no scheme, port or path; not an IP address), and the hosted pages'
//   host (AUTH_URL's) is that domain or under it: a browser refuses a passkey for a domain its page is not on.
//   Unset, it is AUTH_URL's host.
// - WEBAUTHN_ORIGINS are further origins a passkey's ceremony may come from: `https://` origins on the RP ID
//   or under it (`http://localhost` while developing), or an Android app's `android:apk-key-hash:<hash>`.
import type { EnvReader } from './env-reader.ts';

export const SIGNIN_METHODS = ['pin', 'passkey', 'code'] as const;
export type SignInMethod = (typeof SIGNIN_METHODS)[number];

const DEFAULT_SIGNIN_METHODS: readonly SignInMethod[] = ['pin', 'passkey'];
const DEFAULT_RP_NAME = 'Callsign';
const ANDROID_ORIGIN = /^android:apk-key-hash:[A-Za-z0-9_-]{43}$/;
const DOMAIN_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The WebAuthn relying party passkeys are bound to. */
export interface WebAuthnSettings {
  /** WEBAUTHN_RP_ID: the domain passkeys are bound to */
  rpId: string;
  /** WEBAUTHN_RP_NAME: the name an authenticator shows */
  rpName: string;
  /** the hosted pages' origin and WEBAUTHN_ORIGINS: where a ceremony may come from */
  origins: string[];
}

export interface SignInSettings {
  webauthn: WebAuthnSettings;
  /** SIGNIN_METHODS: the ways of signing in that are on */
  signInMethods: ReadonlySet<SignInMethod>;
}

/** Whether `host` is the domain `rpId` or under it. */
const onDomain = (host: string, rpId: string) => host === rpId || host.endsWith(`.${rpId}`);

/** A comma-separated list as written, each item trimmed; undefined when unset. */
const listOf = (r: EnvReader, name: string) =>
  r
    .str(name)
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function signInMethods(r: EnvReader): Set<SignInMethod> {
  const listed = listOf(r, 'SIGNIN_METHODS') ?? [...DEFAULT_SIGNIN_METHODS];
  const methods = new Set<SignInMethod>();
  for (const name of listed) {
    const method = SIGNIN_METHODS.find((m) => m === name.toLowerCase());
    if (method) methods.add(method);
    else r.problems.push(`SIGNIN_METHODS: "${name}" is not one of ${SIGNIN_METHODS.join(', ')}`);
  }
  if (listed.length === 0) r.problems.push('SIGNIN_METHODS must name at least one way of signing in');
  return methods;
}

/** A further origin's problem, if it has one. */
function originProblem(origin: string, rpId: string): string | undefined {
  if (ANDROID_ORIGIN.test(origin)) return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `WEBAUTHN_ORIGINS: "${origin}" is neither an origin nor android:apk-key-hash:<hash>`;
  }
  const local = url.protocol === 'http:' && url.hostname === 'localhost';
  if ((url.protocol !== 'https:' && !local) || url.origin !== origin)
    return `WEBAUTHN_ORIGINS: "${origin}" must be an https origin (scheme, host and port only)`;
  if (!onDomain(url.hostname, rpId)) return `WEBAUTHN_ORIGINS: "${origin}" is not on ${rpId}`;
  return undefined;
}

/**
 * The relying party and its origins: AUTH_URL's, WEBAUTHN_ORIGINS, and `appOrigins` (the Android apps'
 * `android:apk-key-hash:` origins, each app's by itself).
 */
export function signInSettings(
  r: EnvReader,
  authUrl: string,
  brandName: string | undefined,
  appOrigins: readonly string[] = [],
): SignInSettings {
  // A bad AUTH_URL is named by its own check; the relying party is then judged against localhost.
  const pages = new URL(URL.canParse(authUrl) ? authUrl : 'http://localhost');
  const named = r.str('WEBAUTHN_RP_ID');
  const rpId = (named ?? pages.hostname).toLowerCase();
  // A host that is an address is kept when nothing names the RP ID: browsers offer no passkeys there.
  if (named !== undefined && (!DOMAIN_NAME.test(rpId) || /^[\d.]+$/.test(rpId)))
    r.problems.push(`WEBAUTHN_RP_ID must be a domain name, e.g. example.com (got "${rpId}")`);
  else if (!onDomain(pages.hostname, rpId))
    r.problems.push(
      `WEBAUTHN_RP_ID ${rpId} must be AUTH_URL's host (${pages.hostname}) or a domain above it`,
    );
  const further = listOf(r, 'WEBAUTHN_ORIGINS') ?? [];
  r.problems.push(...further.map((o) => originProblem(o, rpId)).filter((p) => p !== undefined));
  const rpName = (r.str('WEBAUTHN_RP_NAME') ?? brandName ?? DEFAULT_RP_NAME).slice(0, 100);
  return {
    webauthn: { rpId, rpName, origins: [...new Set([pages.origin, ...further, ...appOrigins])] },
    signInMethods: signInMethods(r),
  };
}
