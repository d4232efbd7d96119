// What a SIM check provider answers: whether a number's SIM changed within a window, and whether a number was
// given to a new subscriber since a date. A provider never answers "safe" for what it could not find out: a
// timeout, an error, a malformed or partial answer is `unknown`, and the policy decides what that means.

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

/** How long a provider has to answer one call. */
export const SIM_CHECK_DEADLINE_MS = 3000;

/** A vendor's answer: its status and its JSON body (undefined when it sent none that parses). */
export interface VendorAnswer {
  status: number;
  body: unknown;
}

/** One call to a vendor with a deadline; a network error or the deadline throws. */
export async function askVendor(url: string, init: RequestInit, deadlineMs: number): Promise<VendorAnswer> {
  const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(deadlineMs), redirect: 'error' });
  const text = await answer.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: answer.status, body };
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
