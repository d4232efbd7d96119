import type { JWK } from 'jose';
import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export interface OperatorClientKeyRow {
  kid: string;
  public_jwk: JWK;
  private_key_enc: string;
  created_at: Date;
}

/** The lock that lets one transaction at a time make the key (instances starting together). */
const OPERATOR_KEY_LOCK = 724203;

export const operatorClientKeysRepo = {
  /** Waits for, then holds until the transaction ends, the lock of the key's making. */
  lockForChange: (tx: Queryable) => all(tx, sql`SELECT pg_advisory_xact_lock(${OPERATOR_KEY_LOCK})`),

  newest: (q: Queryable) =>
    first<OperatorClientKeyRow>(q, sql`SELECT * FROM operator_client_keys ORDER BY created_at DESC LIMIT 1`),

  insert: (q: Queryable, k: OperatorClientKeyRow) =>
    all(
      q,
      sql`INSERT INTO operator_client_keys (kid, public_jwk, private_key_enc, created_at)
          VALUES (${k.kid}, ${JSON.stringify(k.public_jwk)}::jsonb, ${k.private_key_enc}, ${k.created_at})`,
    ),
};
