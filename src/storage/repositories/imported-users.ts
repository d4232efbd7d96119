import type { Queryable } from '../db.ts';
import type { UserRow } from './users.ts';

// Accounts brought in by an import, written many at a time.

export interface ImportedUser {
  id: string;
  phone: string;
  country: string | null;
  externalId: string | null;
  handle: string;
  handleFromImport: boolean;
  name: string | null;
  language: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
  /** set for an account the source had disabled: it is imported locked by the operator */
  lockedAt: Date | null;
  now: Date;
}

export const importedUsersRepo = {
  /** Of these, the phones live accounts have, the source ids and the ids accounts have, and the handles taken. */
  async existing(
    q: Queryable,
    c: { phones: string[]; externalIds: string[]; ids: string[]; handles: string[] },
  ) {
    const rows = await q.query<{ kind: string; value: string }>(
      `SELECT 'phone' AS kind, phone AS value FROM users WHERE phone = ANY($1::text[]) AND deleted_at IS NULL
       UNION ALL SELECT 'external_id', external_id FROM users WHERE external_id = ANY($2::text[])
       UNION ALL SELECT 'id', id::text FROM users WHERE id = ANY($3::uuid[])
       UNION ALL SELECT 'handle', handle FROM users WHERE handle = ANY($4::text[]) AND deleted_at IS NULL`,
      [c.phones, c.externalIds, c.ids, c.handles],
    );
    const of = (kind: string) => new Set(rows.filter((r) => r.kind === kind).map((r) => r.value));
    return { phones: of('phone'), externalIds: of('external_id'), ids: of('id'), handles: of('handle') };
  },

  /**
   * Writes the accounts, each without a PIN; one that meets a unique index (a phone, source id, id or handle
   * another account took meanwhile) is left out. Answers the accounts written.
   */
  insert: (q: Queryable, users: ImportedUser[]) =>
    q.query<UserRow>(
      `INSERT INTO users (id, phone, country, external_id, handle, handle_from_import, name, language, metadata,
                          created_at, updated_at, admin_locked_at)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[],
                            $8::text[], $9::jsonb[], $10::timestamptz[], $11::timestamptz[], $12::timestamptz[])
       ON CONFLICT DO NOTHING
       RETURNING *`,
      [
        users.map((u) => u.id),
        users.map((u) => u.phone),
        users.map((u) => u.country),
        users.map((u) => u.externalId),
        users.map((u) => u.handle),
        users.map((u) => u.handleFromImport),
        users.map((u) => u.name),
        users.map((u) => u.language),
        users.map((u) => JSON.stringify(u.metadata)),
        users.map((u) => u.createdAt),
        users.map((u) => u.now),
        users.map((u) => u.lockedAt),
      ],
    ),
};
