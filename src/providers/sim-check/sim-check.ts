// What a SIM check provider answers: whether a number's SIM changed within a window, and whether a number was
// given to a new subscriber since a date. A provider never answers "safe" for what it could not find out: a
// timeout, an error, a malformed or partial answer is `unknown`, and the policy decides what that means.

import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { outboundCall } from '../../observability/tracing.ts';

export type SwapOutcome = 'swapped' | 'not_swapped' | 'unknown';
export type RecyclingOutcome = 'recycled' | 'not_recycled' | 'unknown';

export interface SwapAnswer {
  outcome: SwapOutcome;
  /** when the SIM last changed, where the provider says */
  lastSwapAt?: Date | null;
  /** why the answer is unknown, for the operators' view (never a secret) */
  detail?: string;
}

export interface RecyclingAnswer {
  outcome: RecyclingOutcome;
  detail?: string;
}

export interface SimCheckProvider {
  readonly name: 'camara' | 'twilio' | 'http';
  /** Whether the SIM of `phone` (E.164) changed in the last `maxAgeHours` hours. */
  swappedWithin(phone: string, maxAgeHours: number): Promise<SwapAnswer>;
  /** Whether `phone` was given to a new subscriber since `since` (a day); absent where the provider has no such check. */
  recycledSince?(phone: string, since: Date): Promise<RecyclingAnswer>;
}

/** How long a provider has to answer one check, however many calls the check takes. */
export const SIM_CHECK_DEADLINE_MS = 3000;

/** A check's deadline: when (on the monotonic clock, in ms) its calls must all have been answered. */
export type Deadline = number;

/** The deadline of a check that starts now. */
export const deadlineIn = (ms: number): Deadline => performance.now() + ms;

/** A vendor's answer: its status and its JSON body (undefined when it sent none that parses). */
export interface VendorAnswer {
  status: number;
  body: unknown;
}

/** Connections to the vendor are kept open between lookups: a new TLS handshake per code step costs more than the lookup. */
const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

/** The deadline passed: the call is given up (named as fetch's own timeout is, for failureOf). */
export const deadlinePassed = () =>
  Object.assign(new Error('the vendor did not answer in time'), { name: 'TimeoutError' });

/**
 * One call to a vendor that must be answered by the deadline (a number of ms from now, or a check's Deadline);
 * a network error or the deadline throws. A redirect is not followed (its status is the answer). Node's own
 * HTTP client, not fetch: a lookup's CPU is a quarter of fetch's.
 */
export function askVendor(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  within: { ms: number } | { deadline: Deadline },
): Promise<VendorAnswer> {
  const target = { url, method: init.method };
  return outboundCall(new URL(url).hostname, target, (traceparent) =>
    askVendorAt(url, { ...init, headers: { ...init.headers, ...traceparent } }, within),
  );
}

/** askVendor's call itself, its trace context among its headers. */
function askVendorAt(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  within: { ms: number } | { deadline: Deadline },
): Promise<VendorAnswer> {
  const deadlineMs = 'ms' in within ? within.ms : within.deadline - performance.now();
  if (deadlineMs <= 0) return Promise.reject(deadlinePassed());
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = target.protocol === 'https:' ? agents['https:'] : agents['http:'];
  return new Promise((resolve, reject) => {
    const call = send(target, { method: init.method, headers: init.headers, agent }, (answer) => {
      let text = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => {
        text += chunk;
      });
      answer.on('end', () => {
        clearTimeout(timer);
        let body: unknown;
        try {
          body = text ? JSON.parse(text) : undefined;
        } catch {}
        resolve({ status: answer.statusCode ?? 0, body });
      });
      answer.on('error', reject);
    });
    const timer = setTimeout(() => call.destroy(deadlinePassed()), deadlineMs);
    call.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    call.end(init.body);
  });
}

/** A field of an object, when it is one. */
export const fieldOf = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;

/** A vendor refused a step before the check itself (its token, say). */
export class VendorRefusal extends Error {}

/** Why a call gave no answer, in a few words for the operators' view. */
export function failureOf(err: unknown): string {
  if (err instanceof VendorRefusal) return err.message;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'timeout';
  return 'unreachable';
}

/** A vendor's error answer, in a few words: its status and, where it has one, its code. */
export function refusalOf(answer: VendorAnswer): string {
  const code = fieldOf(answer.body, 'code') ?? fieldOf(answer.body, 'error_code');
  return typeof code === 'string' || typeof code === 'number'
    ? `${answer.status} ${code}`
    : `${answer.status}`;
}

/** A date the vendor gave (ISO 8601), when it is one. */
export function dateOf(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
