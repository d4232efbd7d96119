// OIDC RP-Initiated Logout 1.0 §2-§3: what a logout request may do.
//
// Rules:
// - The request alone ends nothing unless it carries a valid id_token_hint: an ID token of ours (its
//   signature and issuer checked; expired or not), issued to a live client, naming the user who is
//   signed in here (or anyone, when nobody is). Otherwise the user is asked, on a page whose button
//   posts back with a CSRF token: a forged logout link cannot sign anyone out.
// - With a valid hint, the single sign-on ends at once.
// - The browser goes back only to one of the client's post_logout_redirect_uris (compared exactly), with
//   `state` added: the hint's client, or, without a valid hint, the live client `client_id` names (§2: a
//   relying party whose session already ended has no ID token left to send). Without a valid hint it goes
//   there only after the user said "Sign out". A client_id that disagrees with a valid hint, or an address
//   that is not registered, sends it nowhere. A login redirect URI is never a logout destination.
import type { ClientRow } from '../../storage/repositories/clients.ts';

export interface LogoutDeps {
  /** the client and user an ID token of ours names, expired or not; undefined for anything else */
  idTokenHint(token: string): Promise<{ aud: string; sub: string } | undefined>;
  /** live clients only */
  findClient(clientId: string): Promise<ClientRow | undefined>;
}

/** Where the browser goes after a logout: a client's registered post-logout URI, and the state to add. */
export interface LogoutReturn {
  clientId: string;
  uri: string;
  state?: string;
}

export type LogoutDecision =
  /** ask the user first; then go back to `afterwards` if there is one */
  | { kind: 'confirm'; afterwards?: LogoutReturn }
  /** end the single sign-on now, then go back to `redirect` if there is one */
  | { kind: 'end'; redirect?: string };

/** The URI with `state`, if the live client registered it; else none. */
function registeredReturn(client: ClientRow | undefined, back: LogoutReturn): string | undefined {
  if (!client?.post_logout_redirect_uris.includes(back.uri)) return undefined;
  const url = new URL(back.uri);
  if (back.state !== undefined) url.searchParams.set('state', back.state);
  return url.toString();
}

/** The address to send the browser to, checked against its client's registered ones; else none. */
export async function logoutRedirect(
  back: LogoutReturn | undefined,
  d: Pick<LogoutDeps, 'findClient'>,
): Promise<string | undefined> {
  return back && registeredReturn(await d.findClient(back.clientId), back);
}

/** `signedInUserId`: whose single sign-on this browser holds, if any. */
export async function decideLogout(
  p: Record<string, unknown>,
  signedInUserId: string | undefined,
  d: LogoutDeps,
): Promise<LogoutDecision> {
  const { post_logout_redirect_uri: uri, id_token_hint: hint, client_id: clientId, state } = p;
  const hinted = typeof hint === 'string' && hint ? await d.idTokenHint(hint) : undefined;
  const disagrees = hinted !== undefined && clientId !== undefined && clientId !== hinted.aud;
  // The client the browser would go back to: the hint's, else the one `client_id` names.
  const clientOf = disagrees
    ? undefined
    : (hinted?.aud ?? (typeof clientId === 'string' ? clientId : undefined));
  const client = clientOf === undefined ? undefined : await d.findClient(clientOf);
  const back =
    clientOf !== undefined && typeof uri === 'string'
      ? { clientId: clientOf, uri, ...(typeof state === 'string' ? { state } : {}) }
      : undefined;
  const redirect = back && registeredReturn(client, back);
  const proven =
    hinted !== undefined &&
    !disagrees &&
    (signedInUserId === undefined || signedInUserId === hinted.sub) &&
    client !== undefined;
  if (proven) return { kind: 'end', redirect };
  return { kind: 'confirm', afterwards: redirect ? back : undefined };
}
