import type { Queryable } from '../db.ts';
import { all, first, one, sql } from '../sql.ts';

export interface ClientRow {
  client_id: string;
  client_name: string;
  client_secret_hash: string | null;
  /** the secret before a roll, working until previous_secret_expires_at */
  previous_secret_hash: string | null;
  previous_secret_expires_at: Date | null;
  redirect_uris: string[];
  grant_types: string[];
  scope: string;
  token_endpoint_auth_method: string;
  first_party: boolean;
  /** OIDC Back-Channel Logout 1.0: where the client hears that a session ended */
  backchannel_logout_uri: string | null;
  /** OIDC RP-Initiated Logout 1.0 §3.1: where the browser may go back after a logout */
  post_logout_redirect_uris: string[];
  logo_uri: string | null;
  client_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  brand_color: string | null;
  /** the logo fetched from logo_uri, by name (a row of logos) */
  logo_image: string | null;
  /** RFC 7591 / OIDC Registration §2: the JWS algorithm of its ID tokens (and logout tokens) */
  id_token_signed_response_alg: string;
  /** the JWS algorithm of its userinfo answers; null: plain JSON */
  userinfo_signed_response_alg: string | null;
  /** the public keys it signs with (a JWK Set), or where to fetch them; null both: it registered none */
  jwks: { keys: Record<string, unknown>[] } | null;
  jwks_uri: string | null;
  /** RFC 9126 §6: its authorization requests come only through PAR */
  require_pushed_authorization_requests: boolean;
  /** RFC 9449 §5.2: every token request of the client carries a DPoP proof */
  dpop_bound_access_tokens: boolean;
  /** the FAPI 2.0 Security Profile applies to it */
  fapi_2_0: boolean;
  /** RFC 7592: the hash of the token by which a client that registered itself manages its registration */
  registration_access_token_hash: string | null;
  created_at: Date;
  deleted_at: Date | null;
}

export type NewClient = Omit<
  ClientRow,
  'deleted_at' | 'previous_secret_hash' | 'previous_secret_expires_at' | 'registration_access_token_hash'
>;

const jsonOrNull = (value: unknown) => (value === null ? null : JSON.stringify(value));

export const clientsRepo = {
  /** The names of these clients, deleted ones too (their sessions' history still names them). */
  namesOf: async (q: Queryable, ids: string[]) =>
    new Map(
      (
        await all<{ client_id: string; client_name: string }>(
          q,
          sql`SELECT client_id, client_name FROM clients WHERE client_id = ANY(${ids}::text[])`,
        )
      ).map((r) => [r.client_id, r.client_name]),
    ),

  insert: (q: Queryable, c: NewClient) =>
    one<ClientRow>(
      q,
      sql`INSERT INTO clients (client_id, client_name, client_secret_hash, redirect_uris, grant_types, scope,
         token_endpoint_auth_method, first_party, backchannel_logout_uri, post_logout_redirect_uris, created_at,
         logo_uri, client_uri, policy_uri, tos_uri, brand_color, logo_image, id_token_signed_response_alg,
         userinfo_signed_response_alg, jwks, jwks_uri, require_pushed_authorization_requests,
         dpop_bound_access_tokens, fapi_2_0)
       VALUES (${c.client_id}, ${c.client_name}, ${c.client_secret_hash}, ${JSON.stringify(c.redirect_uris)}::jsonb,
         ${JSON.stringify(c.grant_types)}::jsonb, ${c.scope}, ${c.token_endpoint_auth_method}, ${c.first_party},
         ${c.backchannel_logout_uri}, ${JSON.stringify(c.post_logout_redirect_uris)}::jsonb, ${c.created_at},
         ${c.logo_uri}, ${c.client_uri}, ${c.policy_uri}, ${c.tos_uri}, ${c.brand_color}, ${c.logo_image},
         ${c.id_token_signed_response_alg}, ${c.userinfo_signed_response_alg}, ${jsonOrNull(c.jwks)}::jsonb,
         ${c.jwks_uri}, ${c.require_pushed_authorization_requests}, ${c.dpop_bound_access_tokens}, ${c.fapi_2_0})
       RETURNING *`,
    ),

  findLive: (q: Queryable, clientId: string) =>
    first<ClientRow>(q, sql`SELECT * FROM clients WHERE client_id = ${clientId} AND deleted_at IS NULL`),

  listLive: (q: Queryable) =>
    all<ClientRow>(q, sql`SELECT * FROM clients WHERE deleted_at IS NULL ORDER BY created_at`),

  update: (
    q: Queryable,
    clientId: string,
    c: Omit<NewClient, 'client_id' | 'client_secret_hash' | 'created_at'>,
  ) =>
    first<ClientRow>(
      q,
      sql`UPDATE clients SET client_name = ${c.client_name}, redirect_uris = ${JSON.stringify(c.redirect_uris)}::jsonb,
         grant_types = ${JSON.stringify(c.grant_types)}::jsonb, scope = ${c.scope}, first_party = ${c.first_party},
         backchannel_logout_uri = ${c.backchannel_logout_uri},
         post_logout_redirect_uris = ${JSON.stringify(c.post_logout_redirect_uris)}::jsonb,
         logo_uri = ${c.logo_uri}, client_uri = ${c.client_uri}, policy_uri = ${c.policy_uri}, tos_uri = ${c.tos_uri},
         brand_color = ${c.brand_color}, logo_image = ${c.logo_image},
         token_endpoint_auth_method = ${c.token_endpoint_auth_method},
         id_token_signed_response_alg = ${c.id_token_signed_response_alg},
         userinfo_signed_response_alg = ${c.userinfo_signed_response_alg}, jwks = ${jsonOrNull(c.jwks)}::jsonb,
         jwks_uri = ${c.jwks_uri},
         require_pushed_authorization_requests = ${c.require_pushed_authorization_requests},
         dpop_bound_access_tokens = ${c.dpop_bound_access_tokens}, fapi_2_0 = ${c.fapi_2_0}
       WHERE client_id = ${clientId} AND deleted_at IS NULL RETURNING *`,
    ),

  /** RFC 7592: the registration access token of a client that registered itself (its hash). */
  setRegistrationToken: (q: Queryable, clientId: string, tokenHash: string) =>
    all(
      q,
      sql`UPDATE clients SET registration_access_token_hash = ${tokenHash} WHERE client_id = ${clientId}`,
    ),

  markDeleted: (q: Queryable, clientId: string, now: Date) =>
    first<ClientRow>(
      q,
      sql`UPDATE clients SET deleted_at = ${now} WHERE client_id = ${clientId} AND deleted_at IS NULL RETURNING *`,
    ),
};
