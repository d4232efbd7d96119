import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { addressAllowed } from '../config/outbound-urls.ts';

export {
  type AddressKind,
  addressAllowed,
  addressKind,
  outboundUrlProblem,
} from '../config/outbound-urls.ts';

// D33 for every connection this service opens to an address someone else gave it (webhooks, back-channel
// logouts, logos): the host is resolved once, every address it resolves to is checked, and the socket is
// given exactly those addresses, so a second DNS answer cannot swap in another host between check and connect.

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export type CheckedTarget = { lookup: LookupFunction } | { refused: string };

/** The target's addresses, each allowed by D33, as the lookup its socket must use; or why it is refused. */
export async function checkedTarget(
  target: URL,
  allowPrivateNetworks: boolean,
  resolve: Resolver,
): Promise<CheckedTarget> {
  if (target.protocol === 'http:' && !allowPrivateNetworks)
    return { refused: 'refused: http is allowed only with WEBHOOK_ALLOW_PRIVATE_NETWORKS (D33)' };
  const hostname = target.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(hostname) ? [{ address: hostname, family: isIP(hostname) }] : await resolve(hostname);
  } catch (err) {
    return { refused: `DNS lookup failed: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
  const blocked = addresses.find((a) => !addressAllowed(a.address, allowPrivateNetworks));
  if (blocked || addresses.length === 0)
    return {
      refused: `refused: ${hostname} resolves to ${blocked?.address ?? 'nothing'}, a blocked address (D33)`,
    };
  const lookup: LookupFunction = (_host, opts, callback) => {
    if (opts.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  };
  return { lookup };
}
