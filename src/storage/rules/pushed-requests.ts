// A pushed authorization request (RFC 9126) read and ended.
//
// Rules it enforces:
// - A pushed request is read only by the client that pushed it, before it expires, and while its
//   authorization has not finished: a reload of the page before then reads it again (RFC 9126 §4), and
//   any other reference finds nothing.
// - It finishes once: the first code issued for it (or the first refusal sent back) ends it in one
//   statement, and a second finish, also at the same moment from another tab, finds it ended and gets no code.
import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

/** The parameters of this client's live pushed request, or undefined. */
export async function openPushedRequest(
  q: Queryable,
  referenceHash: string,
  clientId: string,
  now: Date,
): Promise<Record<string, unknown> | undefined> {
  const row = await first<{ parameters: Record<string, unknown> }>(
    q,
    sql`SELECT parameters FROM pushed_authorization_requests
      WHERE reference_hash = ${referenceHash} AND client_id = ${clientId}
        AND expires_at > ${now} AND finished_at IS NULL`,
  );
  return row?.parameters;
}

/** Ends the pushed request's authorization; false if it had already ended (or never was). */
export async function finishPushedRequest(q: Queryable, referenceHash: string, now: Date): Promise<boolean> {
  const ended = await all(
    q,
    sql`UPDATE pushed_authorization_requests SET finished_at = ${now}
      WHERE reference_hash = ${referenceHash} AND finished_at IS NULL RETURNING reference_hash`,
  );
  return ended.length === 1;
}
