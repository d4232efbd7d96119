// A stream's settings as its receiver (or the operator) asks for them.
//
// Rules it enforces:
// - A stream asks for one or more events; it carries only those Callsign supports.
// - A stream is pushed only to an address the outbound rules allow (HTTPS, and not private unless the operator
//   allows it); its Authorization header is kept sealed and never shown again.
import type { StreamRow } from '../../storage/repositories/ssf-streams.ts';
import { fieldError } from '../errors.ts';
import type { PurposeKeys } from '../purpose-keys.ts';
import { parseOutboundUrl } from '../webhooks/webhook-addresses.ts';
import { EVENTS_SUPPORTED, sourceTypesOf } from './event-types.ts';

export const PUSH = 'urn:ietf:rfc:8935';
export const POLL = 'urn:ietf:rfc:8936';

/** A stream's configuration as a receiver sets it. */
export interface StreamInput {
  events_requested?: string[];
  description?: string | null;
  delivery?: { method: string; endpoint_url?: string | null; authorization_header?: string };
}

interface SettingsDeps {
  /** seals a pushed stream's Authorization header */
  headerKeys: PurposeKeys;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: whether a push may go to a private address */
  allowPrivateNetworks: boolean;
}

/** A stored stream's delivery, as its settings hold it. */
export const deliveryOf = (s: StreamRow) => ({
  delivery_method: s.delivery_method,
  endpoint_url: s.endpoint_url,
  authorization_header_enc: s.authorization_header_enc,
});

/** The settings of a stream as asked: known events only, and a delivery this service offers. */
export function streamSettings(d: SettingsDeps, input: StreamInput) {
  const requested = input.events_requested ?? [];
  if (!requested.length)
    throw fieldError(
      'INVALID_REQUEST',
      'events_requested',
      `ask for one or more of ${EVENTS_SUPPORTED.join(', ')}`,
    );
  return {
    description: input.description ?? null,
    ...deliverySettings(d, input.delivery ?? { method: POLL }),
    events_requested: requested,
    source_types: sourceTypesOf(requested.filter((e) => EVENTS_SUPPORTED.includes(e))),
  };
}

/**
 * A poll, or a push to an address the outbound rules allow (an HTTPS address that is not private), with the
 * Authorization header to send kept sealed.
 */
function deliverySettings(deps: SettingsDeps, d: NonNullable<StreamInput['delivery']>) {
  if (d.method === POLL) return { delivery_method: POLL, endpoint_url: null, authorization_header_enc: null };
  if (d.method !== PUSH)
    throw fieldError('INVALID_REQUEST', 'delivery.method', `delivery is ${PUSH} (push) or ${POLL} (poll)`);
  const url = parseOutboundUrl(d.endpoint_url, 'delivery.endpoint_url', deps.allowPrivateNetworks);
  const header = d.authorization_header ? deps.headerKeys.seal(Buffer.from(d.authorization_header)) : null;
  return { delivery_method: PUSH, endpoint_url: url, authorization_header_enc: header };
}
