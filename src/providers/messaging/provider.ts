// One interface for every vendor that carries a message to a phone: SMS, WhatsApp or a voice call.

import type { Channel } from '../../config/channels.ts';
import { outboundCall } from '../../observability/tracing.ts';

export { CHANNELS, type Channel } from '../../config/channels.ts';

/** One message to one phone, as the service asks a vendor to carry it. */
export interface OutgoingMessage {
  /** E.164 */
  to: string;
  channel: Channel;
  /** the whole text, for the channels that carry text (SMS; the console) */
  text: string;
  /** the code it carries, for WhatsApp's template and the voice call; none for a notice */
  code?: string;
  /** the language to speak or fill a template in (a BCP 47 tag) */
  language: string;
}

/** What the vendor answered: its id for the message, when it gives one (receipts name it), and its price. */
export interface SentMessage {
  providerMessageId?: string;
  /** what the vendor says the message costs, in its account's currency, where its answer says */
  price?: number;
}

export interface MessagingProvider {
  /** the provider's name in the configuration (its type's name without one) */
  readonly name: string;
  /** the channels this provider can carry, as configured */
  readonly channels: readonly Channel[];
  /** Carries the message, or throws ProviderError (a non-2xx answer, a timeout, a refused connection). */
  send(message: OutgoingMessage): Promise<SentMessage>;
}

/**
 * Why a vendor did not take a message: `unavailable`, the vendor itself failed (no answer, a timeout, a 5xx,
 * its own throttling: a 429); `refused`, it turned down this one message (another 4xx, a refusal status in
 * its answer).
 */
export type ProviderFailure = 'unavailable' | 'refused';

/** The vendor did not take the message; the next provider is tried. Its message names no secret. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly failure: ProviderFailure = 'refused',
    /** how long the vendor asked not to be called again (its Retry-After), in seconds */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** HTTP's "Too Many Requests": the vendor throttling this account, not refusing the one message. */
const THROTTLED = 429;

/**
 * A Retry-After header in seconds: delay-seconds as it is, an HTTP-date counted from the answer's own Date
 * header (a vendor's clock is not ours). Undefined when absent or unreadable.
 */
export function retryAfterOf(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  const sentAt = Date.parse(headers.get('date') ?? '');
  return Number.isNaN(at) || Number.isNaN(sentAt) ? undefined : Math.max(0, Math.ceil((at - sentAt) / 1000));
}

/**
 * A vendor's HTTP call, with the rules every provider shares: a 5 s timeout, no redirects followed, and any
 * failure (unreachable, timed out, not 2xx) a ProviderError naming the vendor and the status, never a secret.
 * Answers the parsed JSON body (undefined when there is none).
 */
export async function callVendor(vendor: string, url: string, init: RequestInit, timeoutMs = 5000) {
  let res: Response;
  try {
    const method = init.method ?? 'GET';
    res = await outboundCall(vendor, { url, method }, (traceparent) => {
      const headers = new Headers(init.headers);
      for (const [name, value] of Object.entries(traceparent)) headers.set(name, value);
      return fetch(url, { ...init, headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    });
  } catch (err) {
    throw new ProviderError(
      `${vendor} unreachable: ${(err as Error).name === 'TimeoutError' ? 'timed out' : (err as Error).message}`,
      'unavailable',
    );
  }
  const text = await res.text().catch(() => '');
  if (res.status < 200 || res.status > 299)
    throw new ProviderError(
      `${vendor} answered ${res.status}: ${text.slice(0, 200)}`,
      res.status >= 500 || res.status === THROTTLED ? 'unavailable' : 'refused',
      retryAfterOf(res.headers),
    );
  try {
    return text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    return undefined;
  }
}

/** The E.164 number without its plus sign, as several vendors take it. */
export const digitsOf = (e164: string) => e164.replace(/^\+/, '');

/**
 * A price as a vendor writes it (a number or a decimal string; Twilio's is negative, a charge), as a positive
 * amount; nothing when it is absent or not a number.
 */
export function vendorPrice(value: unknown): { price?: number } {
  const amount = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return value === '' || !Number.isFinite(amount) ? {} : { price: Math.abs(amount) };
}

/** A field of a vendor's JSON answer, if the answer is an object that has it. */
export function fieldOf(answer: unknown, name: string): unknown {
  return typeof answer === 'object' && answer !== null && name in answer
    ? (answer as Record<string, unknown>)[name]
    : undefined;
}
