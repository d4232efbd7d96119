import type { Queryable } from '../db.ts';
import { type ClaimBounds, claimDueRows, type SentRows } from '../send-claims.ts';
import { all, sql } from '../sql.ts';
import { type QueuedEvent, STREAM_UPDATED_ROW } from './ssf-events.ts';

/** A queued event claimed for a push, with where it goes and what its SET is made with. */
export interface ClaimedPush extends QueuedEvent {
  attempts: number;
  locked_until: Date;
  stream_id: string;
  client_id: string;
  endpoint_url: string;
  authorization_header_enc: string | null;
  id_token_signed_response_alg: string;
}

export interface PushResult {
  started_at: Date;
  status_code: number | null;
  error: string | null;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
}

/**
 * A pushed event's receiver is its stream, while it is pushed and its client is not deleted; its events go while
 * it is enabled, and a notice of its status changed (STREAM_UPDATED_ROW) whatever the status.
 */
const PUSHES: SentRows = {
  table: 'ssf_events',
  receiverColumn: 'stream_id',
  receivers: 'ssf_streams',
  receiverKey: 'id',
  receiverKeyType: 'uuid',
  live: `r.delivery_method = 'urn:ietf:rfc:8935'`,
  rowLive: `(r.status = 'enabled' OR ${STREAM_UPDATED_ROW('d')})`,
};

export const ssfPushesRepo = {
  /** Takes due events of pushed streams, for this worker until `lockedUntil`, within the bounds. */
  claimDue: (q: Queryable, now: Date, lockedUntil: Date, bounds: ClaimBounds) =>
    claimDueRows<ClaimedPush>(q, PUSHES, {
      returning: 'id, attempts, locked_until, stream_id, event_id, own_event, created_at',
      select: `SELECT cl.id, cl.attempts, cl.locked_until, cl.stream_id, cl.own_event, cl.created_at,
                      o.type, o.data, o.facts, st.client_id, st.endpoint_url, st.authorization_header_enc,
                      c.id_token_signed_response_alg
                 FROM claimed cl JOIN ssf_streams st ON st.id = cl.stream_id
                 JOIN clients c ON c.client_id = st.client_id AND c.deleted_at IS NULL
                 LEFT JOIN outbox_events o ON o.id = cl.event_id`,
      now,
      lockedUntil,
      bounds,
    }),

  /** One attempt's result; the claim's `locked_until` fences it, as for webhook deliveries. */
  record: (q: Queryable, claim: Pick<ClaimedPush, 'id' | 'locked_until'>, r: PushResult) =>
    all(
      q,
      sql`UPDATE ssf_events SET status = ${r.status}, attempts = ${r.attempts}, next_attempt_at = coalesce(${r.next_attempt_at}::timestamptz, next_attempt_at),
         locked_until = NULL, last_attempt_at = ${r.started_at}, last_status_code = ${r.status_code}, last_error = ${r.error},
         delivered_at = CASE WHEN ${r.status} = 'delivered' THEN ${r.started_at} ELSE delivered_at END
       WHERE id = ${claim.id} AND locked_until = ${claim.locked_until}`,
    ),
};
