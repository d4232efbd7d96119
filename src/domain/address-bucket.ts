// What a per-address rate limit counts a client address as.
//
// Rules:
// - An IPv4 address counts as itself.
// - An IPv6 address counts by its /64 prefix: one host is routinely given a whole /64, so counting
//   each address would let it rotate through 2^64 buckets to spray codes or PIN guesses.
// - An IPv4-mapped IPv6 address (::ffff:192.0.2.1) counts as the IPv4 address it carries, so a
//   dual-stack listener and an IPv4 one count the same client the same way.
// - Anything that is not an IP address (a test's or a proxy's odd value) counts as itself.
import { isIPv4, isIPv6 } from 'node:net';

const IPV6_GROUPS = 8;
const PREFIX_GROUPS = 4; // 4 groups of 16 bits: the /64

/** The eight 16-bit groups of an IPv6 address, an embedded IPv4 tail turned into two of them. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4Tail) {
    const [a, b, c, d] = (v4Tail[1] as string).split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -v4Tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) =>
    part ? part.split(':').map((g) => Number.parseInt(g, 16)) : [];
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : Array(IPV6_GROUPS - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

export function addressBucket(address: string): string {
  const bare = address.replace(/%.*$/, ''); // a zone index names an interface, not another host
  if (isIPv4(bare) || !isIPv6(bare)) return address;
  const groups = ipv6Groups(bare.toLowerCase());
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [hi, lo] = [groups[6] as number, groups[7] as number];
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return `${groups
    .slice(0, PREFIX_GROUPS)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
