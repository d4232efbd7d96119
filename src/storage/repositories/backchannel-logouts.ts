import type { Queryable } from '../db.ts';

export type LogoutStatus = 'pending' | 'delivered' | 'failed';

/** A claimed back-channel logout with what sending it needs: the ended session and where its client listens. */
export interface ClaimedLogout {
  id: string;
  attempts: number;
  locked_until: Date;
  client_id: string;
  session_id: string;
  user_id: string;
  url: string;
}

export interface LogoutResult {
  started_at: Date;
  status_code: number | null;
  error: string | null;
  status: LogoutStatus;
  attempts: number;
  next_attempt_at: Date | null;
}

/**
 * P109: a CTE (`logouts`) writing one back-channel logout, due at once, for each session of `from` (a CTE of
 * revoked session rows) whose live client registered a logout URI; `now` is the time, as SQL.
 */
export const backchannelLogoutsCte = (from: string, now: string) => `logouts AS (
       INSERT INTO backchannel_logouts (id, client_id, session_id, user_id, next_attempt_at, created_at)
       SELECT gen_random_uuid(), s.client_id, s.id, s.user_id, ${now}, ${now}
         FROM ${from} s JOIN clients c ON c.client_id = s.client_id
        WHERE c.deleted_at IS NULL AND c.backchannel_logout_uri IS NOT NULL
       ON CONFLICT (session_id) DO NOTHING
     )`;

export const backchannelLogoutsRepo = {
  /**
   * Takes up to `limit` due logouts of clients that still take them, for this worker until `lockedUntil`;
   * SKIP LOCKED keeps two workers from sending one logout at once (as webhook deliveries, D32).
   */
  claimDue: (q: Queryable, now: Date, lockedUntil: Date, limit: number) =>
    q.query<ClaimedLogout>(
      `WITH claimed AS (
         UPDATE backchannel_logouts SET locked_until = $2
         WHERE id IN (
           SELECT b.id FROM backchannel_logouts b JOIN clients c ON c.client_id = b.client_id
           WHERE b.status = 'pending' AND b.next_attempt_at <= $1
             AND (b.locked_until IS NULL OR b.locked_until <= $1)
             AND c.deleted_at IS NULL AND c.backchannel_logout_uri IS NOT NULL
           ORDER BY b.next_attempt_at LIMIT $3
           FOR UPDATE OF b SKIP LOCKED)
         RETURNING id, attempts, locked_until, client_id, session_id, user_id)
       SELECT cl.*, c.backchannel_logout_uri AS url FROM claimed cl JOIN clients c ON c.client_id = cl.client_id`,
      [now, lockedUntil, limit],
    ),

  /** One attempt's result; the claim's `locked_until` fences it, as for webhook deliveries. */
  record: (q: Queryable, claim: Pick<ClaimedLogout, 'id' | 'locked_until'>, r: LogoutResult) =>
    q.query(
      `UPDATE backchannel_logouts SET status = $3, attempts = $4, next_attempt_at = $5, locked_until = NULL,
         last_attempt_at = $6, last_status_code = $7, last_error = $8,
         delivered_at = CASE WHEN $3 = 'delivered' THEN $6 ELSE delivered_at END
       WHERE id = $1 AND locked_until = $2`,
      [
        claim.id,
        claim.locked_until,
        r.status,
        r.attempts,
        r.next_attempt_at,
        r.started_at,
        r.status_code,
        r.error,
      ],
    ),
};
