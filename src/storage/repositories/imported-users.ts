import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';
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
    const rows = await all<{ kind: string; value: string }>(
      q,
      sql`SELECT 'phone' AS kind, phone AS value FROM users WHERE phone = ANY(${c.phones}::text[]) AND deleted_at IS NULL
       UNION ALL SELECT 'external_id', external_id FROM users WHERE external_id = ANY(${c.externalIds}::text[])
       UNION ALL SELECT 'id', id::text FROM users WHERE id = ANY(${c.ids}::uuid[])
       UNION ALL SELECT 'handle', handle FROM users WHERE handle = ANY(${c.handles}::text[]) AND deleted_at IS NULL`,
    );
    const of = (kind: string) => new Set(rows.filter((r) => r.kind === kind).map((r) => r.value));
    return { phones: of('phone'), externalIds: of('external_id'), ids: of('id'), handles: of('handle') };
  },

  /**
   * Writes the accounts, each without a PIN; one that meets a unique index (a phone, source id, id or handle
   * another account took meanwhile) is left out. Answers the accounts written.
   */
  insert: (q: Queryable, users: ImportedUser[]) =>
    all<UserRow>(
      q,
      sql`INSERT INTO users (id, phone, country, external_id, handle, handle_from_import, name, language, metadata,
                          created_at, updated_at, admin_locked_at)
       SELECT * FROM unnest(${users.map((u) => u.id)}::uuid[], ${users.map((u) => u.phone)}::text[], ${users.map((u) => u.country)}::text[], ${users.map((u) => u.externalId)}::text[], ${users.map((u) => u.handle)}::text[], ${users.map((u) => u.handleFromImport)}::boolean[], ${users.map((u) => u.name)}::text[],
                            ${users.map((u) => u.language)}::text[], ${users.map((u) => JSON.stringify(u.metadata))}::jsonb[], ${users.map((u) => u.createdAt)}::timestamptz[], ${users.map((u) => u.now)}::timestamptz[], ${users.map((u) => u.lockedAt)}::timestamptz[])
       ON CONFLICT DO NOTHING
       RETURNING *`,
    ),
};
