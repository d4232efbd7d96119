// TRUST_PROXY: which hops of X-Forwarded-For are the operator's own proxies, so that the address every
// per-address limit counts is the client's and not one the client wrote.
//
// Rules it enforces:
// - Unset, `false` or `0`: no proxy is trusted; the address is the connection's.
// - A whole number N (1-10): the N hops nearest this service are trusted proxies; the client is the address
//   the farthest of them appended (`1`: the last X-Forwarded-For entry, written by the one load balancer).
//   Entries further left were written by the client and are never used.
// - A comma-separated list of addresses and CIDR ranges: the connection and each X-Forwarded-For entry, from
//   the right, is a proxy while it is in the list; the first one that is not is the client.
// - `true` trusts every hop: the leftmost entry, which the client writes, becomes its address. It is
//   accepted, and a production start warns of it.
import { isIP } from 'node:net';
import type { EnvReader } from './env-reader.ts';

/** What Fastify's `trustProxy` takes: none, every hop, a hop count, or the proxies' addresses. */
export type TrustProxy = boolean | number | string[];

const MAX_HOPS = 10;

/** An address or a CIDR range (`10.0.0.0/8`, `2001:db8::/32`). */
function isAddressOrRange(item: string): boolean {
  const [address, prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits >= 0 && bits <= (family === 4 ? 32 : 128);
}

export function trustProxySetting(r: EnvReader): TrustProxy {
  const raw = r.str('TRUST_PROXY');
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops <= MAX_HOPS) return hops;
  }
  const proxies = raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  const wrong = proxies.filter((item) => !isAddressOrRange(item));
  if (!proxies.length || wrong.length) {
    r.problems.push(
      `TRUST_PROXY must be false, a number of proxy hops (1-${MAX_HOPS}), the proxies' addresses or CIDR ranges (comma-separated), or true (got "${raw}")`,
    );
    return false;
  }
  return proxies;
}

/** The start-up warning for a production service that lets every client choose its own address. */
export function trustProxyWarnings(trustProxy: TrustProxy, production: boolean): string[] {
  return production && trustProxy === true
    ? [
        'TRUST_PROXY=true trusts every X-Forwarded-For hop, so a client can choose the address its limits count: set the number of proxies (TRUST_PROXY=1) or their addresses',
      ]
    : [];
}

/**
 * The setting as Fastify's `trustProxy` takes it: a hop count becomes the function that trusts the nearest N
 * hops (the connection is hop 0), which is what Fastify does with a number but its types do not offer.
 */
export function proxyTrust(
  trustProxy: TrustProxy,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (_address, hop) => hop < hops;
}
