import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export interface AuthorizationCodeRow {
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scope: string;
  code_challenge: string;
  nonce: string | null;
  auth_time: Date;
  /** how the sign-in was proved (RFC 8176 methods); null for codes issued before it was recorded */
  amr: string[] | null;
  /** The version of the account's PIN that the sign-in proved */
  pin_version: number;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  session_id: string | null;
  /** RFC 9449 §10: the DPoP key the request named (dpop_jkt), whose proof the exchange must carry */
  dpop_jkt: string | null;
}

export const authorizationCodesRepo = {
  insert: (q: Queryable, c: Omit<AuthorizationCodeRow, 'used_at' | 'session_id'>) =>
    all(
      q,
      sql`INSERT INTO authorization_codes (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, nonce,
         auth_time, pin_version, created_at, expires_at, amr, dpop_jkt)
       VALUES (${c.code_hash}, ${c.client_id}, ${c.user_id}, ${c.redirect_uri}, ${c.scope}, ${c.code_challenge}, ${c.nonce}, ${c.auth_time}, ${c.pin_version}, ${c.created_at}, ${c.expires_at}, ${c.amr}, ${c.dpop_jkt})`,
    ),

  find: (q: Queryable, hash: string) =>
    first<AuthorizationCodeRow>(q, sql`SELECT * FROM authorization_codes WHERE code_hash = ${hash}`),

  /** The codes of these hashes (those that exist), in one statement; each by its key. */
  findMany: (q: Queryable, hashes: string[]) =>
    all<AuthorizationCodeRow>(
      q,
      sql`SELECT c.* FROM (VALUES ${sql.join(
        hashes.map((hash) => sql`(${hash}::text)`),
        ', ',
      )}) input (code_hash), LATERAL (
        SELECT * FROM authorization_codes WHERE code_hash = input.code_hash OFFSET 0
      ) c`,
    ),
};
