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

/** The check has not finished yet: the device has not opened its URL, or the vendor is still asking. */
export interface NotYet {
  outcome: 'not_yet';
}

/** A step the vendor refused, with what that means for the check. */
export class NetworkRefusal extends Error {
  constructor(readonly answer: NetworkAnswer) {
    super(answer.detail);
  }
}

/**
 * How the device's check ends:
 * - query: the device comes back to the callback with the answer in its query (CAMARA's front channel)
 * - fragment: the device comes back with the answer in the URL's fragment, which only the page's script can
 *   read and post (Vonage); an app reads the same from the last answer it followed
 * - none: the device does not come back; the vendor is asked once the app completes (Twilio)
 */
export type NetworkReturn = 'query' | 'fragment' | 'none';

/** How long one check has by default, however many calls it takes (discovery, the token, the verification). */
export const NETWORK_CHECK_DEADLINE_MS = 6000;

/** The SHA-256 of a number in E.164 (with its "+"), in hexadecimal: how CAMARA takes a hashed number. */
export const hashedNumber = (phone: string): string => createHash('sha256').update(phone).digest('hex');

/**
 * A vendor that asks the network: the front channel (the device sent to a URL over its mobile data, and back
 * to Callsign's callback with what it carries) and, where the vendor has one, an app's operator token.
 */
export interface NetworkVerifier {
  readonly name: string;
  readonly returns: NetworkReturn;
  /** Where to send the device, and what the check needs on its return (kept sealed meanwhile). */
  authorizationUrl(
    phone: string,
    redirectUri: string,
    state: string,
  ): Promise<{ url: string; pending: object }>;
  /**
   * The device came back with `callback`'s parameters (none, where the device does not come back): the
   * network's answer, or not yet.
   */
  finish(
    phone: string,
    pending: object,
    redirectUri: string,
    callback: Record<string, string>,
  ): Promise<NetworkAnswer | NotYet>;
  /** An app's operator token (GSMA TS.43): the network's answer (`unavailable` where the vendor takes none). */
  verifyOperatorToken(phone: string, operatorToken: string): Promise<NetworkAnswer>;
}
