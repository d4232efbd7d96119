import { createHash } from 'node:crypto';

// What a silent check of a phone number by its mobile network answers, whichever vendor asks the network. A
// check never answers "verified" for what it could not find out: the device on Wi-Fi, an operator that does
// not take part, a timeout, an error or a malformed answer is `unavailable` or `error`, and the caller falls
// back to a code.

/**
 * - verified: the network says the device holds the number
 * - other_number: the network says the device holds another number
 * - unavailable: the network cannot say (the device is not on its mobile data, the operator takes no part)
 * - error: the vendor failed (an error answer, a malformed one, no answer in time)
 */
export type NetworkOutcome = 'verified' | 'other_number' | 'unavailable' | 'error';

export interface NetworkAnswer {
  outcome: NetworkOutcome;
  /** why, in a few words, for the operators' view (never a secret) */
  detail?: string;
}

/** How long one check has, however many calls it takes (discovery, the token, the verification). */
export const NETWORK_CHECK_DEADLINE_MS = 6000;

/** The SHA-256 of a number in E.164 (with its "+"), in hexadecimal: how CAMARA takes a hashed number. */
export const hashedNumber = (phone: string): string => createHash('sha256').update(phone).digest('hex');

/**
 * A vendor that asks the network: the front channel (the device sent to a URL over its mobile data, and back
 * to Callsign's callback with what it carries) and, where the vendor has one, an app's operator token.
 */
export interface NetworkVerifier {
  readonly name: string;
  /** Where to send the device, and what the check needs on its return (kept sealed meanwhile). */
  authorizationUrl(
    phone: string,
    redirectUri: string,
    state: string,
  ): Promise<{ url: string; pending: object }>;
  /** The device came back with `callback`'s parameters: the network's answer. */
  finish(
    phone: string,
    pending: object,
    redirectUri: string,
    callback: Record<string, string>,
  ): Promise<NetworkAnswer>;
  /** An app's operator token (GSMA TS.43): the network's answer. */
  verifyOperatorToken(phone: string, operatorToken: string): Promise<NetworkAnswer>;
}
