import type { ClientRow } from '../../storage/repositories/clients.ts';

export interface LogoutDeps {
  idTokenHint(token: string): Promise<{ aud: string } | undefined>;
  findClient(clientId: string): Promise<ClientRow | undefined>;
}

/**
 * P68 (OIDC RP-Initiated Logout 1.0 §2-3): where the browser goes after logout, if anywhere. The client is
 * the one the ID token hint was issued to (or `client_id`, which must then agree), and the address must be
 * one of its registered redirect URIs, as given; `state` goes back with it. Anything else: no redirect.
 */
export async function postLogoutRedirect(
  p: Record<string, unknown>,
  d: LogoutDeps,
): Promise<string | undefined> {
  const { post_logout_redirect_uri: uri, id_token_hint: hint, client_id: clientId, state } = p;
  if (typeof uri !== 'string') return undefined;
  const hinted = typeof hint === 'string' ? await d.idTokenHint(hint) : undefined;
  if (hint !== undefined && !hinted) return undefined;
  if (hinted && clientId !== undefined && clientId !== hinted.aud) return undefined;
  const client = hinted?.aud ?? clientId;
  if (typeof client !== 'string' || !(await d.findClient(client))?.redirect_uris.includes(uri))
    return undefined;
  const url = new URL(uri);
  if (typeof state === 'string') url.searchParams.set('state', state);
  return url.toString();
}
