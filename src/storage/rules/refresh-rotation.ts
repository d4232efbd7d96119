// Refresh-token rotation: a session's refresh tokens form a chain, and each use moves its head one step.
//
// Rules it enforces:
// - Only the chain's live head rotates: the presented token must be the session's current generation with its
//   hash, of a session nobody revoked whose refresh token has not run out, and of the client presenting it.
// - It rotates exactly once: under concurrent use one caller moves the head; the others wait for the row's
//   lock, then find the generation moved on and are refused.
// - A token one generation behind the head, presented within the grace window after the head was issued, is
//   a repeat (a client that lost the answer), not reuse: it is told so, so the same successor can be given.
// - Any other earlier generation is reuse: the chain is compromised (the caller ends the session).
// - A session bound to a DPoP key (a public client's, RFC 9449 §5) rotates only for a request that proved
//   that key; a token presented without it is refused as invalid, and is neither a repeat nor reuse, so
//   whoever stole it can neither refresh nor end the session.
//
// Rotations that arrive together are written in one statement (the caller batches them), each reaching its
// session by primary key and never waiting: a session whose row another transaction holds is skipped, and
// then rotated on its own (`rotateRefreshToken`), which waits and answers as any rotation.
import type { Queryable } from '../db.ts';
import type { SessionRow } from '../repositories/sessions.ts';
import { all, first, type Sql, sql } from '../sql.ts';

/** How long after a rotation the token it replaced may be presented again as a repeat, not reuse. */
export const REFRESH_REUSE_GRACE_SECONDS = 10;

/** A rotation of a session's refresh-token chain, from the presented token to its successor. */
export interface Rotation {
  id: string;
  clientId: string;
  generation: number;
  hash: string;
  nextHash: string;
  now: Date;
  expiresAt: Date;
  /** the DPoP key the request proved, if it sent a proof */
  dpopJkt: string | null;
}

export type RotatedSession = Pick<SessionRow, 'id' | 'user_id' | 'scope' | 'auth_time' | 'amr'>;

/** Why a presented token did not rotate. */
export type RotationRefusal =
  /** no such session, another client's, revoked, expired, or a generation we never reached */
  | { reason: 'invalid' }
  /** the head's predecessor within the grace window: the session, whose head is the successor to give again */
  | { reason: 'repeat_within_grace'; session: SessionRow }
  /** an earlier generation, out of the grace window: the session to end */
  | { reason: 'reused'; session: SessionRow };

export type RotationOutcome =
  | { rotated: true; session: RotatedSession }
  | ({ rotated: false } & RotationRefusal);

/** The head's move, for the session `target` names, only if the presented token is the live head. */
function moveHead(r: Rotation, target: Sql): Sql {
  return sql`UPDATE sessions SET refresh_generation = ${r.generation} + 1, refresh_hash = ${r.nextHash},
      refresh_issued_at = ${r.now}, refresh_expires_at = ${r.expiresAt}, last_used_at = ${r.now}
    WHERE id = ${target} AND client_id = ${r.clientId} AND refresh_generation = ${r.generation}
      AND refresh_hash = ${r.hash} AND revoked_at IS NULL AND refresh_expires_at > ${r.now}
      AND (dpop_jkt IS NULL OR dpop_jkt = ${r.dpopJkt}::text)
    RETURNING id, user_id, scope, auth_time, amr, client_id, refresh_hash`;
}

/** Why a rotation that moved nothing was refused, from the session as it is now. */
async function refusalOf(q: Queryable, r: Rotation): Promise<RotationRefusal> {
  const session = await first<SessionRow>(q, sql`SELECT * FROM sessions WHERE id = ${r.id}`);
  if (!session || session.client_id !== r.clientId || session.revoked_at) return { reason: 'invalid' };
  if (session.dpop_jkt !== null && session.dpop_jkt !== r.dpopJkt) return { reason: 'invalid' };
  // The head itself, but run out; or a generation beyond it: plainly invalid.
  if (r.generation >= session.refresh_generation) return { reason: 'invalid' };
  const age = (r.now.getTime() - session.refresh_issued_at.getTime()) / 1000;
  if (r.generation === session.refresh_generation - 1 && age <= REFRESH_REUSE_GRACE_SECONDS)
    return { reason: 'repeat_within_grace', session };
  return { reason: 'reused', session };
}

/** One rotation in a statement of its own, waiting for a row lock held elsewhere. */
export async function rotateRefreshToken(q: Queryable, r: Rotation): Promise<RotationOutcome> {
  const moved = await first<RotatedSession>(q, moveHead(r, sql`${r.id}`));
  if (moved) {
    const { id, user_id, scope, auth_time, amr } = moved;
    return { rotated: true, session: { id, user_id, scope, auth_time, amr } };
  }
  return { rotated: false, ...(await refusalOf(q, r)) };
}

/**
 * Many rotations in one statement, each as `rotateRefreshToken` would move it but never waiting: the session
 * of each rotation made, in order, and undefined for the others (skipped, or not the live head).
 */
export async function rotateRefreshTokens(
  q: Queryable,
  rs: Rotation[],
): Promise<Array<RotatedSession | undefined>> {
  const moves = rs.map(
    (r, k) =>
      sql`${sql.identifier(`moved${k}`)} AS (${moveHead(r, sql`(SELECT id FROM sessions WHERE id = ${r.id} FOR UPDATE SKIP LOCKED)`)})`,
  );
  const rows = await all<RotatedSession & { client_id: string; refresh_hash: string }>(
    q,
    sql`WITH ${sql.join(moves, ', ')}
      ${sql.join(
        rs.map(
          (_, k) =>
            sql`SELECT id, user_id, scope, auth_time, amr, client_id, refresh_hash FROM ${sql.identifier(`moved${k}`)}`,
        ),
        ' UNION ALL ',
      )}`,
  );
  // A move is this rotation's if it is of its session, for its client, to its successor: the same token
  // presented twice shares one move; another token of the same session, or another client, does not.
  const movedBy = (r: { id: string; client_id: string; refresh_hash: string }) =>
    `${r.id} ${r.client_id} ${r.refresh_hash}`;
  const moved = new Map(
    rows.map((r) => [
      movedBy(r),
      { id: r.id, user_id: r.user_id, scope: r.scope, auth_time: r.auth_time, amr: r.amr },
    ]),
  );
  return rs.map((r) => moved.get(movedBy({ id: r.id, client_id: r.clientId, refresh_hash: r.nextHash })));
}
