import type { Queryable } from './db.ts';

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
  return q.query<T>(
    `WITH claimed AS (
       UPDATE ${rows.table} SET locked_until = $2
       WHERE id = ANY(ARRAY(
         SELECT d.id FROM ${rows.receivers} r
           LEFT JOIN unnest($5::${rows.receiverKeyType}[], $6::int[]) AS busy(key, n) ON busy.key = r.${rows.receiverKey}
           CROSS JOIN LATERAL (
             SELECT d.id, d.next_attempt_at FROM ${rows.table} d
             WHERE d.${rows.receiverColumn} = r.${rows.receiverKey} AND d.status = 'pending' AND d.next_attempt_at <= $1
               AND (d.locked_until IS NULL OR d.locked_until <= $1)
             ORDER BY d.next_attempt_at LIMIT greatest($4 - coalesce(busy.n, 0), 0)
             FOR UPDATE SKIP LOCKED) d
         WHERE ${rows.live}
         ORDER BY d.next_attempt_at LIMIT $3))
       RETURNING ${c.returning})
     ${c.select}`,
    [
      c.now,
      c.lockedUntil,
      c.bounds.limit,
      c.bounds.perReceiver,
      [...c.bounds.busy.keys()],
      [...c.bounds.busy.values()],
    ],
  );
}
