// Which web apps on other origins may call the REST surface from a browser.
//
// Rules it enforces (at start, every problem named):
// - CORS_ORIGINS is a comma-separated list of exact origins: `https://` with a host and an optional port,
//   nothing after it (no path, no trailing slash, no wildcard). `http://` only where browsers treat the host as
//   potentially trustworthy while developing: `localhost` and `*.localhost`, the loopback range 127.0.0.0/8,
//   and `[::1]`.
import type { EnvReader } from './env-reader.ts';

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Whether browsers treat an http origin on this host as potentially trustworthy (a loopback host). */
const loopbackHost = (hostname: string) =>
  hostname === 'localhost' ||
  hostname.endsWith('.localhost') ||
  LOOPBACK_V4.test(hostname) ||
  hostname === '[::1]';

/** An origin as a browser sends it in `Origin`, or the problem with it. */
function originProblem(written: string): string | undefined {
  if (!URL.canParse(written)) return 'is not an origin';
  const url = new URL(written);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopbackHost(url.hostname)))
    return 'must be https (http only for localhost and loopback addresses)';
  if (url.origin !== written) return `must be written as its origin alone (${url.origin})`;
  return undefined;
}

/** CORS_ORIGINS: the exact origins; empty when unset. */
export function corsOrigins(r: EnvReader): ReadonlySet<string> {
  const listed = (r.str('CORS_ORIGINS') ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  for (const origin of listed) {
    const problem = originProblem(origin);
    if (problem) r.problems.push(`CORS_ORIGINS: "${origin}" ${problem}`);
  }
  return new Set(listed);
}
