import { fieldError } from '../errors.ts';
import { EVENT_TYPES } from './events.ts';
import { parseOutboundUrl } from './webhook-addresses.ts';

/** Spec "Retry policy": the delay before attempts 2-6, each counted from the previous failure. */
export const RETRY_DELAYS_SECONDS = [60, 5 * 60, 30 * 60, 2 * 3600, 24 * 3600] as const;
/** Spec "Limits": webhook attempts. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/** What a failed attempt leads to: the next attempt's time, or `failed` after the 6th. */
export function afterFailure(
  failedAttempts: number,
  now: Date,
): { status: 'pending' | 'failed'; next: Date | null } {
  if (failedAttempts >= MAX_ATTEMPTS) return { status: 'failed', next: null };
  return {
    status: 'pending',
    next: new Date(now.getTime() + RETRY_DELAYS_SECONDS[failedAttempts - 1] * 1000),
  };
}

/** `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = (bytes: Buffer) => `whsec_${bytes.toString('base64')}`;

export interface EndpointSpec {
  url: string;
  /** empty = every event type */
  event_types: string[];
  description: string | null;
  enabled: boolean;
}

const ALL = '*';

/**
 * The admin API's endpoint body. `events` lists event types of the catalogue, or `["*"]` (the
 * default) for all; the url as parseOutboundUrl says.
 */
export function parseEndpointSpec(
  body: Record<string, unknown>,
  { partial, allowPrivateNetworks }: { partial: boolean; allowPrivateNetworks: boolean },
): Partial<EndpointSpec> {
  const spec: Partial<EndpointSpec> = {};
  if (body.url !== undefined || !partial) spec.url = parseOutboundUrl(body.url, 'url', allowPrivateNetworks);
  if (body.events !== undefined) spec.event_types = parseEvents(body.events);
  else if (!partial) spec.event_types = [];
  if (body.description !== undefined) {
    if (body.description !== null && (typeof body.description !== 'string' || body.description.length > 200))
      throw fieldError(
        'INVALID_REQUEST',
        'description',
        'description must be a string of at most 200 characters',
      );
    spec.description = (body.description as string | null)?.trim() || null;
  } else if (!partial) spec.description = null;
  if (body.enabled !== undefined) {
    if (typeof body.enabled !== 'boolean')
      throw fieldError('INVALID_REQUEST', 'enabled', 'enabled must be true or false');
    spec.enabled = body.enabled;
  } else if (!partial) spec.enabled = true;
  return spec;
}

function parseEvents(value: unknown): string[] {
  const bad = () =>
    fieldError('INVALID_REQUEST', 'events', `events must be ["*"] or a list of: ${EVENT_TYPES.join(', ')}`);
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string')) throw bad();
  if (value.includes(ALL)) {
    if (value.length !== 1) throw bad();
    return [];
  }
  if (value.some((v) => !(EVENT_TYPES as string[]).includes(v))) throw bad();
  return [...new Set(value as string[])].sort();
}

/** How an endpoint's subscription reads in the API. */
export const presentEvents = (eventTypes: string[]) => (eventTypes.length ? eventTypes : [ALL]);
