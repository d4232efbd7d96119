// Which web apps on other origins may call the REST surface from a browser.
//
// Rules it enforces (at start, every problem named):
// - CORS_ORIGINS is a comma-separated list of exact origins: `https://` (or `http://` for localhost while
//   developing) with a host and an optional port, nothing after it (no path, no trailing slash, no wildcard).
import type { EnvReader } from './env-reader.ts';

/** An origin as a browser sends it in `Origin`, or the problem with it. */
function originProblem(written: string): string | undefined {
  if (!URL.canParse(written)) return 'is not an origin';
  const url = new URL(written);
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local))
    return 'must be https (http only for localhost)';
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
