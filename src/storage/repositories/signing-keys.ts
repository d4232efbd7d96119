import type { JWK } from 'jose';
import type { Queryable } from '../db.ts';

export interface SigningKeyRow {
  kid: string;
  public_jwk: JWK;
  private_key_enc: string;
  created_at: Date;
  /** When the key starts signing; a key rotated in is published before */
  signs_from: Date;
  /** when it stops signing (may lie ahead: when the key rotated in after it starts) */
  retired_at: Date | null;
  published_until: Date | null;
}

export const signingKeysRepo = {
  /** Keys whose public half is still published: the signing key and retired keys whose tokens may live. */
  published: (q: Queryable, now: Date) =>
    q.query<SigningKeyRow>(
      'SELECT * FROM signing_keys WHERE published_until IS NULL OR published_until > $1 ORDER BY created_at DESC',
      [now],
    ),

  /** Every key not yet retiring stops signing at `at` (when the key rotated in starts). */
  retireAll: (q: Queryable, at: Date, publishedUntil: Date) =>
    q.query('UPDATE signing_keys SET retired_at = $1, published_until = $2 WHERE retired_at IS NULL', [
      at,
      publishedUntil,
    ]),

  insert: (
    q: Queryable,
    k: Pick<SigningKeyRow, 'kid' | 'public_jwk' | 'private_key_enc' | 'created_at' | 'signs_from'>,
  ) =>
    q.query(
      `INSERT INTO signing_keys (kid, public_jwk, private_key_enc, created_at, signs_from)
       VALUES ($1, $2::jsonb, $3, $4, $5)`,
      [k.kid, JSON.stringify(k.public_jwk), k.private_key_enc, k.created_at, k.signs_from],
    ),
};
