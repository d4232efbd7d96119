import type { Queryable } from '../db.ts';
import { countRows, type Sql, sql } from '../sql.ts';

/**
 * Rules of every purge of a table that grows with use:
 * - No statement removes or rewrites more than PURGE_BATCH_ROWS rows, so none holds its row locks, or keeps
 *   a replica waiting, for long; the purge repeats statements until a batch comes back short.
 * - Rows another transaction holds are skipped (FOR UPDATE SKIP LOCKED), so two instances purging at once
 *   split the rows between them instead of queueing behind each other, and a live request is never blocked.
 * - The rows are chosen and then reached by their physical address (ctid) in the same statement, which
 *   needs no primary key and reads each chosen row once.
 */
export const PURGE_BATCH_ROWS = 2000;

/** A purge's target: rows of `table` (a name chosen by the code) matching `where`. */
export interface PurgeTarget {
  table: string;
  where: Sql;
}

/** The ctids of at most one batch of the target's rows that no other transaction holds. */
const batchOf = (t: PurgeTarget, batchRows: number) =>
  sql`ctid = ANY (ARRAY (SELECT ctid FROM ${sql.identifier(t.table)} WHERE ${t.where}
    LIMIT ${batchRows} FOR UPDATE SKIP LOCKED))`;

/** Deletes the target's rows a batch per statement; answers how many went. */
export async function deleteInBatches(
  q: Queryable,
  target: PurgeTarget,
  batchRows = PURGE_BATCH_ROWS,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const n = await countRows(
      q,
      sql`DELETE FROM ${sql.identifier(target.table)} WHERE ${batchOf(target, batchRows)} RETURNING 1`,
    );
    removed += n;
    if (n < batchRows) return removed;
  }
}

/** Applies `set` to the target's rows a batch per statement; `where` must stop matching a row once set. */
export async function updateInBatches(
  q: Queryable,
  target: PurgeTarget & { set: Sql },
  batchRows = PURGE_BATCH_ROWS,
): Promise<number> {
  let changed = 0;
  for (;;) {
    const n = await countRows(
      q,
      sql`UPDATE ${sql.identifier(target.table)} SET ${target.set} WHERE ${batchOf(target, batchRows)} RETURNING 1`,
    );
    changed += n;
    if (n < batchRows) return changed;
  }
}
