import type { Queryable } from './db.ts';
import { all, sql } from './sql.ts';

/**
 * What a send worker's claim may take: at most `limit` rows, and of any one receiver (a webhook
 * endpoint, a client's logout URI) at most `perReceiver` less what it has `busy` in this process.
 */
export interface ClaimBounds {
  limit: number;
  perReceiver: number;
  /** attempts in flight per receiver in this process */
  busy: ReadonlyMap<string, number>;
}

/** Where a kind of sent row lives, and what makes one of its receivers live. */
export interface SentRows {
  /** the table of the rows (status, next_attempt_at, locked_until, and a column naming the receiver) */
  table: string;
  /** that column */
  receiverColumn: string;
  /** the receivers' table, aliased `r`, its key, and its key's SQL type */
  receivers: string;
  receiverKey: string;
  receiverKeyType: 'uuid' | 'text';
  /** the condition on `r` of a receiver that still takes its rows */
  live: string;
  /** a condition on `r` and a row `d` of it that the row must meet too; every row of a live receiver if absent */
  rowLive?: string;
}

/** A claim: the rows' columns its UPDATE returns, and the SELECT that reads them (from `claimed`) with more. */
export interface ClaimStatement {
  returning: string;
  select: string;
  now: Date;
  lockedUntil: Date;
  bounds: ClaimBounds;
}

/**
 * Claims due rows until `lockedUntil` within the bounds: per live receiver its earliest due rows up to its
 * share (a LATERAL over the `(receiver, next_attempt_at)` index of pending rows), then the earliest of those.
 * FOR UPDATE SKIP LOCKED: two workers claiming at once get disjoint sets, and a row whose lease has not run
 * out is not taken again, so one attempt is never sent twice at once. The rows are updated through
 * `id = ANY(ARRAY(...))`, by primary key in any plan.
 */
export function claimDueRows<T>(q: Queryable, rows: SentRows, c: ClaimStatement): Promise<T[]> {
  return all<T>(
    q,
    sql`WITH claimed AS (
       UPDATE ${sql.constant(rows.table)} SET locked_until = ${c.lockedUntil}
       WHERE id = ANY(ARRAY(
         SELECT d.id FROM ${sql.constant(rows.receivers)} r
           LEFT JOIN unnest(${[...c.bounds.busy.keys()]}::${sql.constant(rows.receiverKeyType)}[], ${[...c.bounds.busy.values()]}::int[]) AS busy(key, n) ON busy.key = r.${sql.constant(rows.receiverKey)}
           CROSS JOIN LATERAL (
             SELECT d.id, d.next_attempt_at FROM ${sql.constant(rows.table)} d
             WHERE d.${sql.constant(rows.receiverColumn)} = r.${sql.constant(rows.receiverKey)} AND d.status = 'pending' AND d.next_attempt_at <= ${c.now}
               AND (d.locked_until IS NULL OR d.locked_until <= ${c.now}) AND ${sql.constant(rows.rowLive ?? 'true')}
             ORDER BY d.next_attempt_at LIMIT greatest(${c.bounds.perReceiver} - coalesce(busy.n, 0), 0)
             FOR UPDATE SKIP LOCKED) d
         WHERE ${sql.constant(rows.live)}
         ORDER BY d.next_attempt_at LIMIT ${c.bounds.limit}))
       RETURNING ${sql.constant(c.returning)})
     ${sql.constant(c.select)}`,
  );
}
