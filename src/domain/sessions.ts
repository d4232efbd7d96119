import { addSeconds, type Clock } from '../providers/clock.ts';
import type { Random } from '../providers/random.ts';
import type { Database, Queryable } from '../storage/db.ts';
import { refreshTokensRepo } from '../storage/repositories/refresh-tokens.ts';
import { type SessionRow, sessionsRepo } from '../storage/repositories/sessions.ts';
import { hmac, sha256 } from './crypto.ts';
import type { Device } from './device.ts';
import { DomainError } from './errors.ts';
import { type Events, payloads, type SessionRevokeReason } from './events.ts';
import { isUuid } from './ids.ts';

/** D16 */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
export const REFRESH_REUSE_GRACE_SECONDS = 10;

export interface SessionDeps {
  db: Database;
  clock: Clock;
  random: Random;
  events: Events;
  /** keys the derivation of a token's successor */
  refreshKey: Buffer;
}

export interface OpenedSession {
  session: SessionRow;
  refreshToken: string;
}

const invalidRefreshToken = () =>
  new DomainError('INVALID_REFRESH_TOKEN', 'refresh token is invalid, expired or revoked');

/** D15-D17: sessions, their refresh-token families, rotation and revocation. */
export class SessionService {
  constructor(private readonly d: SessionDeps) {}

  /**
   * D15: one sign-in on one device, with its session.created event, in one statement: atomic on its own, or
   * part of the caller's transaction.
   */
  async open(
    q: Queryable,
    s: {
      userId: string;
      clientId: string;
      device: Device;
      ipAddress: string | null;
      scope: string;
      authTime?: Date;
      /** an id chosen beforehand (see SessionService.newId); a new one otherwise */
      id?: string;
    },
  ): Promise<OpenedSession> {
    const now = this.d.clock.now();
    const refreshToken = this.d.random.token(32);
    const row = {
      id: s.id ?? this.d.random.uuid(),
      user_id: s.userId,
      client_id: s.clientId,
      device_name: s.device.name,
      platform: s.device.platform,
      ip_address: s.ipAddress,
      scope: s.scope,
      authTime: s.authTime,
      now,
    };
    const session = await sessionsRepo.insert(
      q,
      row,
      { token_hash: sha256(refreshToken), expires_at: addSeconds(now, REFRESH_TOKEN_TTL_SECONDS) },
      this.d.events.event('session.created', payloads.sessionCreated(row)),
    );
    return { session, refreshToken };
  }

  /** An id for a session about to be opened, for a caller that records it first (the code exchange, D24). */
  newId(): string {
    return this.d.random.uuid();
  }

  /**
   * D16: the successor is derived from the token itself (HMAC under a server key), so a repeat within
   * the grace window can be answered with the very same new token without storing it anywhere.
   */
  private successorOf(token: string) {
    return hmac(this.d.refreshKey, token).toString('base64url');
  }

  /** D16: rotates exactly once; a repeat within 10 s gets the same successor, a later one is reuse. */
  async rotate(
    token: unknown,
    clientId: string,
  ): Promise<{ userId: string; sessionId: string; scope: string; refreshToken: string }> {
    if (typeof token !== 'string' || token.length > 200) throw invalidRefreshToken();
    const now = this.d.clock.now();
    const hash = sha256(token);
    const successor = this.successorOf(token);
    const successorHash = sha256(successor);

    const rotated = await refreshTokensRepo.rotate(this.d.db, {
      hash,
      clientId,
      successorHash,
      now,
      expiresAt: addSeconds(now, REFRESH_TOKEN_TTL_SECONDS),
    });
    if (rotated) {
      return {
        userId: rotated.user_id,
        sessionId: rotated.session_id,
        scope: rotated.scope,
        refreshToken: successor,
      };
    }

    // Not rotated now: a repeat within the grace window, reuse, or simply invalid.
    const outcome = await this.d.db.transaction(async (tx) => {
      const row = await refreshTokensRepo.findWithSession(tx, hash);
      // Unknown, another client's, expired, or of a revoked session: plainly invalid.
      if (!row || row.client_id !== clientId || row.session_revoked_at || !row.rotated_at)
        return { ok: false as const };
      const age = (now.getTime() - row.rotated_at.getTime()) / 1000;
      if (age <= REFRESH_REUSE_GRACE_SECONDS && row.successor_hash === successorHash) {
        const next = await refreshTokensRepo.findWithSession(tx, successorHash);
        if (next && !next.rotated_at)
          return { ok: true as const, userId: row.user_id, sessionId: row.session_id, scope: row.scope };
      }
      // Reuse of a rotated token: the family is compromised, so the whole session goes.
      await this.revoke(tx, row.session_id, 'refresh_token_reuse');
      return { ok: false as const };
    });
    if (!outcome.ok) throw invalidRefreshToken();
    return {
      userId: outcome.userId,
      sessionId: outcome.sessionId,
      scope: outcome.scope,
      refreshToken: successor,
    };
  }

  /** Revokes and writes session.revoked, once, whoever else revokes at the same time. */
  async revoke(
    tx: Queryable,
    sessionId: string,
    reason: SessionRevokeReason,
  ): Promise<SessionRow | undefined> {
    const revoked = await sessionsRepo.revoke(tx, sessionId, reason, this.d.clock.now());
    if (revoked) await this.d.events.emit(tx, 'session.revoked', payloads.sessionRevoked(revoked, reason));
    return revoked;
  }

  async revokeAllOfUser(tx: Queryable, userId: string, reason: SessionRevokeReason): Promise<SessionRow[]> {
    const revoked = await sessionsRepo.revokeAllOfUser(tx, userId, reason, this.d.clock.now());
    for (const s of revoked)
      await this.d.events.emit(tx, 'session.revoked', payloads.sessionRevoked(s, reason));
    return revoked;
  }

  /** D14: logout revokes the whole session of the refresh token given, which must be the caller's. */
  async logout(userId: string, token: unknown): Promise<void> {
    if (typeof token !== 'string') throw invalidRefreshToken();
    await this.d.db.transaction(async (tx) => {
      const row = await refreshTokensRepo.findWithSession(tx, sha256(token));
      if (!row || row.user_id !== userId) throw invalidRefreshToken();
      await this.revoke(tx, row.session_id, 'logout');
    });
  }

  /** D17, D18: the caller's own active session only; anything else is NOT_FOUND. */
  /** A session of this user, by the user (`user_revoked`) or by the operator (`admin`), D34. */
  async revokeOwn(
    userId: string,
    sessionId: string,
    reason: SessionRevokeReason = 'user_revoked',
  ): Promise<void> {
    await this.d.db.transaction(async (tx) => {
      const session = isUuid(sessionId)
        ? await sessionsRepo.findActiveOfUser(tx, sessionId, userId)
        : undefined;
      if (!session) throw new DomainError('NOT_FOUND', 'no such session');
      await this.revoke(tx, session.id, reason);
    });
  }

  listActive(userId: string): Promise<SessionRow[]> {
    return sessionsRepo.listActive(this.d.db, userId);
  }

  /** D17: an access token is good only while its session is. */
  async isActive(sessionId: string): Promise<boolean> {
    return (await sessionsRepo.findActive(this.d.db, sessionId)) !== undefined;
  }
}
