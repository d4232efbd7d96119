import { maybeOne, type Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

/**
 * Where envelopes sealed with a key derived from KEY_ENCRYPTION_KEY are kept, by purpose: each table
 * with its key column and its sealed columns (a sealed column may be null).
 */
export const ENCRYPTED_COLUMNS = {
  signing_keys: { table: 'signing_keys', key: 'kid', columns: ['private_key_enc'] },
  webhook_secrets: { table: 'webhook_endpoints', key: 'id', columns: ['secret_enc', 'previous_secret_enc'] },
  kyc_photos: { table: 'kyc_photos', key: 'id', columns: ['data_enc'] },
  recovery_code_sets: { table: 'recovery_code_sets', key: 'user_id', columns: ['code_key_enc'] },
} as const;

export type EncryptedPlace = keyof typeof ENCRYPTED_COLUMNS;

export const encryptedColumnsRepo = {
  /** The next keys of the table, in order, after `after` (from the first when undefined). */
  keysAfter: async (q: Queryable, place: EncryptedPlace, after: string | undefined, limit: number) => {
    const { table, key } = ENCRYPTED_COLUMNS[place];
    const rows =
      after === undefined
        ? await q.query<{ k: string }>(`SELECT ${key} AS k FROM ${table} ORDER BY ${key} LIMIT $1`, [limit])
        : await q.query<{ k: string }>(
            `SELECT ${key} AS k FROM ${table} WHERE ${key} > $1 ORDER BY ${key} LIMIT $2`,
            [after, limit],
          );
    return rows.map((r) => r.k);
  },

  /** The row's sealed values, in the order of its columns, locked until the transaction ends. */
  lockedValues: async (tx: Queryable, place: EncryptedPlace, rowKey: string) => {
    const { table, key, columns } = ENCRYPTED_COLUMNS[place];
    const row = await maybeOne<Record<string, string | null>>(
      tx,
      `SELECT ${columns.join(', ')} FROM ${table} WHERE ${key} = $1 FOR UPDATE`,
      [rowKey],
    );
    return row && columns.map((c) => row[c]);
  },

  write: (tx: Queryable, place: EncryptedPlace, rowKey: string, values: (string | null)[]) => {
    const { table, key, columns } = ENCRYPTED_COLUMNS[place];
    const set = sql.join(
      columns.map((column, i) => sql`${sql.identifier(column)} = ${values[i]}`),
      ', ',
    );
    return all(tx, sql`UPDATE ${sql.identifier(table)} SET ${set} WHERE ${sql.identifier(key)} = ${rowKey}`);
  },
};
