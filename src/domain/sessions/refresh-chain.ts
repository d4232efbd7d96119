import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { SessionRotations } from '../../storage/batches/session-rotations.ts';
import { sha256 } from '../crypto.ts';
import { DomainError } from '../errors.ts';
import { type Authentication, recordedAmr } from './authentication.ts';
import type { RefreshTokenCodec } from './refresh-tokens.ts';

/** A session's refresh token lives 30 days from its last use. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

export const invalidRefreshToken = () =>
  new DomainError('INVALID_REFRESH_TOKEN', 'refresh token is invalid, expired or revoked');

export interface RotatedRefreshToken {
  userId: string;
  sessionId: string;
  scope: string;
  refreshToken: string;
  /** the sign-in that started the session, which a refresh keeps */
  auth: Authentication;
}

export interface RefreshRotationDeps {
  clock: Clock;
  refreshTokens: RefreshTokenCodec;
  rotations: SessionRotations;
  /** ends a session whose refresh token was reused, with its event */
  endSession: (sessionId: string) => Promise<unknown>;
}

/**
 * A refresh token's use moves its session's chain exactly once; the token's predecessor presented again
 * within the grace window gets the same successor, and any other earlier token is reuse, which ends the
 * session. The statement's reasons (`storage/rules/refresh-rotation.ts`) decide which.
 */
export async function rotateRefreshToken(
  d: RefreshRotationDeps,
  token: string,
  clientId: string,
  dpopJkt: string | null = null,
): Promise<RotatedRefreshToken> {
  const presented = d.refreshTokens.parse(token);
  if (!presented) throw invalidRefreshToken();
  const now = d.clock.now();
  const next = d.refreshTokens.successor(presented);
  const nextHash = sha256(next.value);
  const outcome = await d.rotations.rotate({
    id: presented.sessionId,
    clientId,
    generation: presented.generation,
    hash: sha256(presented.value),
    nextHash,
    now,
    expiresAt: addSeconds(now, REFRESH_TOKEN_TTL_SECONDS),
    dpopJkt,
  });
  if (outcome.rotated) {
    const { session } = outcome;
    return {
      userId: session.user_id,
      sessionId: session.id,
      scope: session.scope,
      refreshToken: next.value,
      auth: { time: session.auth_time, amr: recordedAmr(session.amr) },
    };
  }
  switch (outcome.reason) {
    case 'invalid':
      throw invalidRefreshToken();
    case 'repeat_within_grace': {
      // The successor made with whichever key-encryption key made the head (before or after a change, P99).
      const s = outcome.session;
      const repeat = d.refreshTokens.successors(presented).find((t) => sha256(t.value) === s.refresh_hash);
      const auth = { time: s.auth_time, amr: recordedAmr(s.amr) };
      if (repeat)
        return { userId: s.user_id, sessionId: s.id, scope: s.scope, refreshToken: repeat.value, auth };
      return endReusedFamily(d, s.id);
    }
    case 'reused':
      return endReusedFamily(d, outcome.session.id);
  }
}

/** Reuse of a rotated token: the family is compromised, so the whole session goes. */
async function endReusedFamily(d: RefreshRotationDeps, sessionId: string): Promise<never> {
  await d.endSession(sessionId);
  throw invalidRefreshToken();
}
