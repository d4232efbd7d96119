import { maybeOne, one, type Queryable } from '../db.ts';

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
  created_at: Date;
  deleted_at: Date | null;
}

export type NewClient = Omit<ClientRow, 'deleted_at' | 'previous_secret_hash' | 'previous_secret_expires_at'>;

/** The branding columns, in the order the statements name them. */
const brandingValues = (c: Omit<NewClient, 'client_id' | 'client_secret_hash' | 'created_at'>) => [
  c.logo_uri,
  c.client_uri,
  c.policy_uri,
  c.tos_uri,
  c.brand_color,
  c.logo_image,
];

export const clientsRepo = {
  /** The names of these clients, deleted ones too (their sessions' history still names them). */
  namesOf: async (q: Queryable, ids: string[]) =>
    new Map(
      (
        await q.query<{ client_id: string; client_name: string }>(
          'SELECT client_id, client_name FROM clients WHERE client_id = ANY($1::text[])',
          [ids],
        )
      ).map((r) => [r.client_id, r.client_name]),
    ),

  insert: (q: Queryable, c: NewClient) =>
    one<ClientRow>(
      q,
      `INSERT INTO clients (client_id, client_name, client_secret_hash, redirect_uris, grant_types, scope,
         token_endpoint_auth_method, first_party, backchannel_logout_uri, post_logout_redirect_uris, created_at,
         logo_uri, client_uri, policy_uri, tos_uri, brand_color, logo_image)
       VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, $15, $16, $17)
       RETURNING *`,
      [
        c.client_id,
        c.client_name,
        c.client_secret_hash,
        JSON.stringify(c.redirect_uris),
        JSON.stringify(c.grant_types),
        c.scope,
        c.token_endpoint_auth_method,
        c.first_party,
        c.backchannel_logout_uri,
        JSON.stringify(c.post_logout_redirect_uris),
        c.created_at,
        ...brandingValues(c),
      ],
    ),

  findLive: (q: Queryable, clientId: string) =>
    maybeOne<ClientRow>(q, 'SELECT * FROM clients WHERE client_id = $1 AND deleted_at IS NULL', [clientId]),

  listLive: (q: Queryable) =>
    q.query<ClientRow>('SELECT * FROM clients WHERE deleted_at IS NULL ORDER BY created_at'),

  update: (
    q: Queryable,
    clientId: string,
    c: Omit<NewClient, 'client_id' | 'client_secret_hash' | 'created_at'>,
  ) =>
    maybeOne<ClientRow>(
      q,
      `UPDATE clients SET client_name = $2, redirect_uris = $3::jsonb, grant_types = $4::jsonb, scope = $5,
         first_party = $6, backchannel_logout_uri = $7, post_logout_redirect_uris = $8::jsonb,
         logo_uri = $9, client_uri = $10, policy_uri = $11, tos_uri = $12, brand_color = $13, logo_image = $14
       WHERE client_id = $1 AND deleted_at IS NULL RETURNING *`,
      [
        clientId,
        c.client_name,
        JSON.stringify(c.redirect_uris),
        JSON.stringify(c.grant_types),
        c.scope,
        c.first_party,
        c.backchannel_logout_uri,
        JSON.stringify(c.post_logout_redirect_uris),
        ...brandingValues(c),
      ],
    ),

  markDeleted: (q: Queryable, clientId: string, now: Date) =>
    maybeOne<ClientRow>(
      q,
      'UPDATE clients SET deleted_at = $2 WHERE client_id = $1 AND deleted_at IS NULL RETURNING *',
      [clientId, now],
    ),
};
