// What needs a recent sign-in.
//
// Rules it enforces:
// - Adding or removing a passkey needs the session's last authentication to be at most RECENT_SIGN_IN_SECONDS
//   old; an older one answers FORBIDDEN with `details.reason: "recent_sign_in_required"`. A token taken from an
//   unlocked phone an hour ago cannot add its taker's passkey or remove its owner's.
// - Making recovery codes without the PIN needs a passkey's sign-in that recent (a PIN's or a code's does not).
// - On the account page, making recovery codes and deleting the account need this browser's sign-in to be
//   that recent too: the page is reached by a single sign-on that may be days old.
// - A refresh keeps the session's authentication time: only signing in again makes it recent.
import { DomainError } from '../errors.ts';

export const RECENT_SIGN_IN_SECONDS = 600;

export function assertRecentSignIn(authTime: Date | undefined, now: Date): void {
  const ageSeconds = authTime ? (now.getTime() - authTime.getTime()) / 1000 : Number.POSITIVE_INFINITY;
  if (ageSeconds > RECENT_SIGN_IN_SECONDS)
    throw new DomainError('FORBIDDEN', 'sign in again first: this needs a sign-in at most 10 minutes old', {
      reason: 'recent_sign_in_required',
      max_age: RECENT_SIGN_IN_SECONDS,
    });
}

/** The methods of RFC 8176 a passkey's sign-in records: a hardware-bound or a synced key. */
const PASSKEY_METHODS = ['hwk', 'swk'];

/**
 * A step that needs no PIN when the session's sign-in was a passkey's, at most RECENT_SIGN_IN_SECONDS ago
 * (making recovery codes); otherwise FORBIDDEN with `details.reason: "recent_sign_in_required"`.
 */
export function assertRecentPasskeySignIn(
  auth: { authTime: Date; amr: string[] } | undefined,
  now: Date,
): void {
  if (!auth?.amr.some((method) => PASSKEY_METHODS.includes(method)))
    throw new DomainError('FORBIDDEN', 'send the PIN, or sign in with a passkey first', {
      reason: 'recent_sign_in_required',
      max_age: RECENT_SIGN_IN_SECONDS,
    });
  assertRecentSignIn(auth.authTime, now);
}
