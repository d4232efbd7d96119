// The sessions room: what a signed-in device holds. It owns sessions per device, refresh tokens and their
// rotation chain, access tokens, and the signing keys (and JWS) they are signed with.
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { SessionRotations } from '../../storage/batches/session-rotations.ts';
import type { Database, Queryable } from '../../storage/db.ts';
import { type NewSessionWrite, type SessionRow, sessionsRepo } from '../../storage/repositories/sessions.ts';
import type { Device } from '../accounts/account-inputs.ts';
import { sha256 } from '../crypto.ts';
import { DomainError, fieldError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { wholeNumberParam } from '../paging.ts';
import { type Events, payloads, type SessionRevokeReason, sessionCreated } from '../webhooks/events.ts';

import {
  invalidRefreshToken,
  REFRESH_TOKEN_TTL_SECONDS,
  type RotatedRefreshToken,
  rotateRefreshToken,
} from './refresh-chain.ts';
import type { RefreshToken, RefreshTokenCodec } from './refresh-tokens.ts';

/** GET /sessions answers at most this many sessions a page (and by default). */
export const SESSIONS_PAGE_MAX = 100;

export interface SessionDeps {
  db: Database;
  clock: Clock;
  random: Random;
  events: Events;
  refreshTokens: RefreshTokenCodec;
  /** Rotations written in batches */
  rotations: SessionRotations;
}

export interface SessionToOpen {
  userId: string;
  clientId: string;
  device: Device;
  ipAddress: string | null;
  scope: string;
  authTime?: Date;
  /** how the person proved who they are (RFC 8176 names) */
  amr?: string[];
  dpopJkt?: string | null; // RFC 9449 §5: a public client's refresh tokens bound to its DPoP key
}

/** A session ready to write, and the refresh token to answer once it is. */
export interface PreparedSession {
  write: NewSessionWrite;
  refreshToken: string;
}

export interface OpenedSession {
  session: SessionRow;
  refreshToken: string;
}

/** D15-Sessions, their refresh-token families, rotation and revocation. */
export class SessionService {
  constructor(private readonly d: SessionDeps) {}

  /** One sign-in on one device, with its session.created event, in one statement (or the caller's). */
  async open(q: Queryable, s: SessionToOpen): Promise<OpenedSession> {
    const { write, refreshToken } = this.prepare(s);
    return { session: await this.write(q, write), refreshToken };
  }

  /** Writes a session prepared: its row, first refresh token and session.created event, in one statement. */
  write(q: Queryable, write: NewSessionWrite): Promise<SessionRow> {
    return sessionsRepo.insert(q, write);
  }

  /**
   * What opening a session writes (its row, first refresh token and event) and the refresh token to answer,
   * for a statement that opens it only under conditions of its own (the code exchange, D24).
   */
  prepare(s: SessionToOpen): PreparedSession {
    const now = this.d.clock.now();
    const id = this.d.random.timeOrderedId();
    const refreshToken = this.d.refreshTokens.first(id, this.d.random.token(32)).value;
    const session = {
      id,
      user_id: s.userId,
      client_id: s.clientId,
      device_name: s.device.name,
      platform: s.device.platform,
      ip_address: s.ipAddress,
      scope: s.scope,
      authTime: s.authTime,
      amr: s.amr,
      dpopJkt: s.dpopJkt ?? null,
      now,
    };
    return {
      write: {
        session,
        firstToken: { hash: sha256(refreshToken), expires_at: addSeconds(now, REFRESH_TOKEN_TTL_SECONDS) },
        created: this.d.events.event('session.created', ...sessionCreated(session)),
      },
      refreshToken,
    };
  }

  /** Rotates exactly once (a repeat within 10 s: the same successor); a DPoP-bound one with its key only. */
  rotate(token: string, clientId: string, dpopJkt: string | null = null): Promise<RotatedRefreshToken> {
    return rotateRefreshToken(
      {
        ...this.d,
        endSession: (sessionId) =>
          this.d.db.transaction((tx) => this.revoke(tx, sessionId, 'refresh_token_reuse')),
      },
      token,
      clientId,
      dpopJkt,
    );
  }

  /**
   * The session a refresh token of ours belongs to, revoked or not: its live head, or an earlier generation
   * (whose tag proves we issued it, P59). Undefined for anything else.
   */
  async ofRefreshToken(q: Queryable, token: string): Promise<SessionRow | undefined> {
    const presented = this.d.refreshTokens.parse(token);
    if (!presented) return undefined;
    const s = await sessionsRepo.findById(q, presented.sessionId);
    return s && issuedBy(s, presented) ? s : undefined;
  }

  /**
   * The live session whose current refresh token this is; an earlier generation, though ours, is
   * not. Only a look: nothing rotates and nothing is revoked.
   */
  async ofLiveRefreshToken(token: string): Promise<SessionRow | undefined> {
    const presented = this.d.refreshTokens.parse(token);
    if (!presented) return undefined;
    const s = await sessionsRepo.findLive(this.d.db, presented.sessionId, this.d.clock.now());
    return s && presented.generation === s.refresh_generation && issuedBy(s, presented) ? s : undefined;
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
    return this.announceRevoked(tx, revoked, reason);
  }

  /** Every session of the user but `keep` (the one that asked, or none). */
  async revokeOthersOfUser(
    tx: Queryable,
    userId: string,
    keep: string | null,
    reason: SessionRevokeReason,
  ): Promise<SessionRow[]> {
    const revoked = await sessionsRepo.revokeOthersOfUser(tx, userId, keep, reason, this.d.clock.now());
    return this.announceRevoked(tx, revoked, reason);
  }

  /** Every session of the user with this client, as the user's own revocation (`user_revoked`). */
  async revokeAllOfUserClient(tx: Queryable, userId: string, clientId: string): Promise<SessionRow[]> {
    const now = this.d.clock.now();
    const revoked = await sessionsRepo.revokeAllOfUserClient(tx, userId, clientId, 'user_revoked', now);
    return this.announceRevoked(tx, revoked, 'user_revoked');
  }

  /** session.revoked for each session just revoked, in the revoking transaction. */
  private async announceRevoked(tx: Queryable, revoked: SessionRow[], reason: SessionRevokeReason) {
    for (const s of revoked)
      await this.d.events.emit(tx, 'session.revoked', payloads.sessionRevoked(s, reason));
    return revoked;
  }

  /** Logout revokes the whole session of the refresh token given, which must be the caller's. */
  async logout(userId: string, token: string): Promise<void> {
    await this.d.db.transaction(async (tx) => {
      const session = await this.ofRefreshToken(tx, token);
      if (session?.user_id !== userId) throw invalidRefreshToken();
      await this.revoke(tx, session.id, 'logout');
    });
  }

  /**
   * The caller's own active session only; anything else is NOT_FOUND. By the user
   * (`user_revoked`) or by the operator (`admin`).
   */
  async revokeOwn(
    userId: string,
    sessionId: string,
    reason: SessionRevokeReason = 'user_revoked',
  ): Promise<void> {
    await this.d.db.transaction(async (tx) => {
      const session = isUuid(sessionId)
        ? await sessionsRepo.findActiveOfUser(tx, sessionId, userId, this.d.clock.now())
        : undefined;
      if (!session) throw new DomainError('NOT_FOUND', 'no such session');
      await this.revoke(tx, session.id, reason);
    });
  }

  /**
   * A page of the user's live sessions (`limit` 1-100, default 100; `offset` from 0) and how many there
   * are in all: a user signed in on every launch of an app for 30 days has thousands.
   */
  async listActive(
    userId: string,
    query: { limit?: string; offset?: string } = {},
  ): Promise<{ sessions: SessionRow[]; total: number }> {
    const limit = wholeNumberParam(query.limit, 1, SESSIONS_PAGE_MAX, SESSIONS_PAGE_MAX);
    if (limit === undefined)
      throw fieldError(
        'INVALID_REQUEST',
        'limit',
        `limit must be a whole number from 1 to ${SESSIONS_PAGE_MAX}`,
      );
    const offset = wholeNumberParam(query.offset, 0, Number.MAX_SAFE_INTEGER, 0);
    if (offset === undefined)
      throw fieldError('INVALID_REQUEST', 'offset', 'offset must be a whole number from 0');
    const now = this.d.clock.now();
    const [sessions, total] = await Promise.all([
      sessionsRepo.listActive(this.d.db, userId, now, { limit, offset }),
      sessionsRepo.countActive(this.d.db, userId, now),
    ]);
    return { sessions, total };
  }

  /** When and how the person last proved who they are in this session (a refresh keeps both); undefined once it ended. */
  async authOf(sessionId: string): Promise<{ authTime: Date; amr: string[] } | undefined> {
    const session = await sessionsRepo.findActive(this.d.db, sessionId);
    return session && { authTime: session.auth_time, amr: session.amr ?? [] };
  }

  /** An access token is good only while its session is. */
  async isActive(sessionId: string): Promise<boolean> {
    return (await sessionsRepo.findActive(this.d.db, sessionId)) !== undefined;
  }
}

/** The chain's live head (by its hash), or one of the generations before it. */
const issuedBy = (s: SessionRow, t: RefreshToken) =>
  t.generation < s.refresh_generation ||
  (t.generation === s.refresh_generation && s.refresh_hash === sha256(t.value));
