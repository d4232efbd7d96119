// What a user access token must carry to act for its user on /api/v1.
//
// Rules:
// - Each action needs its scope: reading a field needs the scope that shows it; changing the
//   name, e-mail, metadata or picture needs profile:write (and email to set the e-mail); deleting
//   the account needs account:delete. profile alone only reads, as the consent page says.
// - Deleting the account also needs the PIN entered in the token's own session within the last
//   RECENT_SIGN_IN_SECONDS: a stolen token alone is not enough, as on REST where the PIN is sent. A
//   client gets there by sending its user through the authorization page with prompt=login or
//   max_age, then using the new session's token at once.
// - REST access tokens never carry account:delete: a first-party app deletes on REST with the PIN.
import { OAuthError } from './oauth-error.ts';

export const RECENT_SIGN_IN_SECONDS = 300;

export function requireScope(scope: string, needed: string): void {
  if (!scope.split(' ').includes(needed))
    throw new OAuthError('insufficient_scope', `this needs the ${needed} scope`);
}

/**
 * The token's session proved who the user is recently enough to delete the account (`authTime`: its sign-in);
 * otherwise RFC 9470's step-up challenge, naming the most a sign-in's age may be.
 */
export function requireRecentSignIn(authTime: Date, now: Date): void {
  if (now.getTime() - authTime.getTime() > RECENT_SIGN_IN_SECONDS * 1000)
    throw new OAuthError(
      'insufficient_user_authentication',
      'a more recent sign-in is needed: send the user to sign in again (max_age=300) and use the new access token',
      { max_age: RECENT_SIGN_IN_SECONDS },
    );
}
