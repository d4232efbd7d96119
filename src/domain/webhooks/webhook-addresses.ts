import { outboundUrlProblem } from '../../config/outbound-urls.ts';
import { fieldError } from '../errors.ts';

// D33 for the addresses people give this service (webhook endpoints, back-channel logout URIs, logos): the
// rules themselves are the outbound connections' own (providers/outbound-addresses.ts); here a broken one is
// the request's INVALID_REQUEST, naming its field.

/** The address as given, normalised; INVALID_REQUEST naming `field` when it breaks the rules. */
export function parseOutboundUrl(value: unknown, field: string, allowPrivateNetworks: boolean): string {
  const problem = outboundUrlProblem(value, field, allowPrivateNetworks);
  if (problem !== undefined) throw fieldError('INVALID_REQUEST', field, problem);
  return new URL(String(value)).toString();
}
