import type { JWK } from 'jose';
import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

export interface SigningKeyRow {
  kid: string;
  /** the one JWS algorithm the key signs with (RS256, PS256, ES256, EdDSA) */
  alg: string;
  public_jwk: JWK;
  private_key_enc: string;
  created_at: Date;
  /** When the key starts signing; a key rotated in is published before */
  signs_from: Date;
  /** when it stops signing (may lie ahead: when the key rotated in after it starts) */
  retired_at: Date | null;
  published_until: Date | null;
}

/** The lock that lets one transaction at a time create or rotate the signing keys. */
const SIGNING_KEYS_LOCK = 724202;

export const signingKeysRepo = {
  /** Waits for, then holds until the transaction ends, the lock of key creation and rotation. */
  lockForChange: (tx: Queryable) => all(tx, sql`SELECT pg_advisory_xact_lock(${SIGNING_KEYS_LOCK})`),

  /** Keys whose public half is still published: the signing key and retired keys whose tokens may live. */
  published: (q: Queryable, now: Date) =>
    all<SigningKeyRow>(
      q,
      sql`SELECT * FROM signing_keys WHERE published_until IS NULL OR published_until > ${now} ORDER BY created_at DESC`,
    ),

  /** Every key not yet retiring stops signing at `at` (when the key rotated in starts). */
  retireAll: (q: Queryable, at: Date, publishedUntil: Date) =>
    all(
      q,
      sql`UPDATE signing_keys SET retired_at = ${at}, published_until = ${publishedUntil} WHERE retired_at IS NULL`,
    ),

  insert: (
    q: Queryable,
    k: Pick<SigningKeyRow, 'kid' | 'alg' | 'public_jwk' | 'private_key_enc' | 'created_at' | 'signs_from'>,
  ) =>
    all(
      q,
      sql`INSERT INTO signing_keys (kid, alg, public_jwk, private_key_enc, created_at, signs_from)
       VALUES (${k.kid}, ${k.alg}, ${JSON.stringify(k.public_jwk)}::jsonb, ${k.private_key_enc}, ${k.created_at}, ${k.signs_from})`,
    ),
};
