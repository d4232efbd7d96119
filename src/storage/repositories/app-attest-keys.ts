import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

/** An iOS app's App Attest key, as registered. */
export interface AppAttestKeyRow {
  key_id: string;
  app_id: string;
  /** the public key, SPKI in PEM */
  public_key: string;
  counter: string;
  created_at: Date;
  last_used_at: Date | null;
}

export const appAttestKeysRepo = {
  /** Registers a key once: false when it was registered already. */
  insert: async (q: Queryable, k: { keyId: string; appId: string; publicKey: string; now: Date }) =>
    (
      await all(
        q,
        sql`INSERT INTO app_attest_keys (key_id, app_id, public_key, counter, created_at)
            VALUES (${k.keyId}, ${k.appId}, ${k.publicKey}, 0, ${k.now})
            ON CONFLICT (key_id) DO NOTHING RETURNING key_id`,
      )
    ).length === 1,

  byId: (q: Queryable, keyId: string) =>
    first<AppAttestKeyRow>(q, sql`SELECT * FROM app_attest_keys WHERE key_id = ${keyId}`),
};
