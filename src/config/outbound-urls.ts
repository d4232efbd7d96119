import { BlockList, isIP } from 'node:net';

// Which addresses a webhook (or a back-channel logout) may connect to. Three kinds: public
// (always allowed), private (allowed only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true) and never (link-local,
// cloud metadata, and addresses that are not a single reachable host). Checked on every resolved address at
// send time.

export type AddressKind = 'public' | 'private' | 'never';

const blockList = (subnets: [string, number][]) => {
  const list = new BlockList();
  for (const [net, prefix] of subnets) list.addSubnet(net, prefix, isIP(net) === 6 ? 'ipv6' : 'ipv4');
  return list;
};

const NEVER = blockList([
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches the local host on Linux
  ['169.254.0.0', 16], // link-local, with the 169.254.169.254 metadata service
  ['100.100.100.200', 32], // Alibaba Cloud metadata (inside CGNAT)
  ['168.63.129.16', 32], // Azure host services
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
  ['::', 128], // unspecified
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
  ['fd00:ec2::254', 128], // AWS metadata over IPv6
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): likewise
  ['2002::', 16], // 6to4: likewise
  ['2001::', 32], // Teredo: likewise
]);

const PRIVATE = blockList([
  ['127.0.0.0', 8], // loopback
  ['10.0.0.0', 8], // RFC 1918
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10], // CGNAT (RFC 6598): another operator's private network
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
]);

// Kept apart from the lists above: node's BlockList matches IPv4 addresses against IPv6 rules through this
// very prefix, so in a shared list it would catch every IPv4 address.
const IPV4_MAPPED = blockList([['::ffff:0:0', 96]]);
// IPv4-compatible addresses (::a.b.c.d, deprecated by RFC 4291): an IPv4 address in disguise. Kept apart too,
// since the prefix holds the loopback ::1, which the private list decides.
const IPV4_COMPATIBLE = blockList([['::', 96]]);

export function addressKind(address: string): AddressKind {
  const family = isIP(address);
  if (family === 0) return 'never';
  // The "IPv4-mapped ranges refused": ::ffff:a.b.c.d is never a webhook receiver's real address.
  if (family === 6 && IPV4_MAPPED.check(address, 'ipv6')) return 'never';
  if (family === 6 && IPV4_COMPATIBLE.check(address, 'ipv6') && !PRIVATE.check(address, 'ipv6'))
    return 'never';
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (NEVER.check(address, type)) return 'never';
  if (PRIVATE.check(address, type)) return 'private';
  return 'public';
}

export const addressAllowed = (address: string, allowPrivate: boolean) => {
  const kind = addressKind(address);
  return kind === 'public' || (kind === 'private' && allowPrivate);
};

/**
 * What is wrong with an address this service will connect to for someone else (a webhook endpoint, a
 * back-channel logout URI, a logo), or undefined: https only (http and private literal addresses only where
 * allowed), no credentials, no fragment. Names are resolved and checked again at every connection.
 */
export function outboundUrlProblem(
  value: unknown,
  field: string,
  allowPrivateNetworks: boolean,
): string | undefined {
  if (typeof value !== 'string' || value.length > 2048)
    return `${field} must be a URL of at most 2048 characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `${field} must be an absolute URL`;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivateNetworks))
    return `${field} must use https (D33; http only with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true)`;
  if (url.username || url.password) return `${field} must not carry credentials`;
  if (url.hash) return `${field} must not have a fragment`;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host) !== 0;
  if (
    (literal && !addressAllowed(host, allowPrivateNetworks)) ||
    (!allowPrivateNetworks && /(^|\.)localhost$/i.test(host))
  )
    return `${field} must not point at ${host}: loopback, private, link-local and metadata addresses are refused (D33)`;
  return undefined;
}
