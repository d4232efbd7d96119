import type { ApiKeyRow } from '../../storage/repositories/api-keys.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';

/** D36: RFC 7591 names; the secret never appears after creation. */
export const adminClient = (c: ClientRow) => ({
  client_id: c.client_id,
  client_name: c.client_name,
  redirect_uris: c.redirect_uris,
  grant_types: c.grant_types,
  scope: c.scope,
  token_endpoint_auth_method: c.token_endpoint_auth_method,
  first_party: c.first_party,
  created_at: c.created_at,
});

export const adminApiKey = (k: ApiKeyRow) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: k.created_at,
  last_used_at: k.last_used_at,
  revoked_at: k.revoked_at,
});
