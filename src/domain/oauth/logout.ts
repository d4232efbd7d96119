// OIDC RP-Initiated Logout 1.0 §2-§3: what a logout request may do.
//
// Rules:
// - The request alone ends nothing unless it carries a valid id_token_hint: an ID token of ours (its
//   signature and issuer checked; expired or not), issued to a live client, naming the user who is
//   signed in here (or anyone, when nobody is). Otherwise the user is asked, on a page whose button
//   posts back with a CSRF token, and is then shown "You are signed out", going nowhere: a forged
//   logout link can neither sign anyone out nor send a browser somewhere.
// - With a valid hint, the single sign-on ends at once.
// - The browser goes back only with a valid hint, only to one of the hint's client's
//   post_logout_redirect_uris (compared exactly), with `state` added. A client_id that disagrees with
//   the hint, or an address that is not registered, sends it nowhere. A login redirect URI is never a
//   logout destination.
import type { ClientRow } from '../../storage/repositories/clients.ts';

export interface LogoutDeps {
  /** the client and user an ID token of ours names, expired or not; undefined for anything else */
  idTokenHint(token: string): Promise<{ aud: string; sub: string } | undefined>;
  /** live clients only */
  findClient(clientId: string): Promise<ClientRow | undefined>;
}

export type LogoutDecision =
  /** ask the user first */
  | { kind: 'confirm' }
  /** end the single sign-on now, then go back to `redirect` if there is one */
  | { kind: 'end'; redirect?: string };

const CONFIRM: LogoutDecision = { kind: 'confirm' };

/** `signedInUserId`: whose single sign-on this browser holds, if any. */
export async function decideLogout(
  p: Record<string, unknown>,
  signedInUserId: string | undefined,
  d: LogoutDeps,
): Promise<LogoutDecision> {
  const { post_logout_redirect_uri: uri, id_token_hint: hint, client_id: clientId, state } = p;
  if (typeof hint !== 'string' || !hint) return CONFIRM;
  const hinted = await d.idTokenHint(hint);
  if (!hinted) return CONFIRM;
  if (clientId !== undefined && clientId !== hinted.aud) return CONFIRM;
  if (signedInUserId !== undefined && signedInUserId !== hinted.sub) return CONFIRM;
  const client = await d.findClient(hinted.aud);
  if (!client) return CONFIRM;
  if (typeof uri !== 'string' || !client.post_logout_redirect_uris.includes(uri)) return { kind: 'end' };
  const url = new URL(uri);
  if (typeof state === 'string') url.searchParams.set('state', state);
  return { kind: 'end', redirect: url.toString() };
}
