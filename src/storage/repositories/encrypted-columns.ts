import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

/**
 * Where envelopes sealed with a key derived from KEY_ENCRYPTION_KEY are kept, by purpose: each table
 * with its key column and its sealed columns (a sealed column may be null).
 */
export const ENCRYPTED_COLUMNS = {
  signing_keys: { table: 'signing_keys', key: 'kid', columns: ['private_key_enc'] },
  webhook_secrets: { table: 'webhook_endpoints', key: 'id', columns: ['secret_enc', 'previous_secret_enc'] },
  kyc_photos: { table: 'kyc_photos', key: 'id', columns: ['data_enc'] },
  recovery_code_sets: { table: 'recovery_code_sets', key: 'user_id', columns: ['code_key_enc'] },
  operator_client_keys: { table: 'operator_client_keys', key: 'kid', columns: ['private_key_enc'] },
  ssf_push_headers: { table: 'ssf_streams', key: 'id', columns: ['authorization_header_enc'] },
} as const;

export type EncryptedPlace = keyof typeof ENCRYPTED_COLUMNS;

export const encryptedColumnsRepo = {
  /** The next keys of the table, in order, after `after` (from the first when undefined). */
  keysAfter: async (q: Queryable, place: EncryptedPlace, after: string | undefined, limit: number) => {
    const { table, key } = ENCRYPTED_COLUMNS[place];
    const rows =
      after === undefined
        ? await all<{ k: string }>(
            q,
            sql`SELECT ${sql.identifier(key)} AS k FROM ${sql.identifier(table)} ORDER BY ${sql.identifier(key)} LIMIT ${limit}`,
          )
        : await all<{ k: string }>(
            q,
            sql`SELECT ${sql.identifier(key)} AS k FROM ${sql.identifier(table)} WHERE ${sql.identifier(key)} > ${after}
                ORDER BY ${sql.identifier(key)} LIMIT ${limit}`,
          );
    return rows.map((r) => r.k);
  },

  /** The row's sealed values, in the order of its columns, locked until the transaction ends. */
  lockedValues: async (tx: Queryable, place: EncryptedPlace, rowKey: string) => {
    const { table, key, columns } = ENCRYPTED_COLUMNS[place];
    const row = await first<Record<string, string | null>>(
      tx,
      sql`SELECT ${sql.join(columns.map(sql.identifier), ', ')} FROM ${sql.identifier(table)}
          WHERE ${sql.identifier(key)} = ${rowKey} FOR UPDATE`,
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
