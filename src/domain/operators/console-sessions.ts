import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import { consoleSessionsRepo } from '../../storage/repositories/console-sessions.ts';
import { safeEqual, sha256 } from '../crypto.ts';
import { DomainError } from '../errors.ts';

/** A console sign-in lasts a working day; then the operator signs in again. */
export const CONSOLE_SESSION_SECONDS = 8 * 3600;

/**
 * Issue 8: the operator signs in with the admin token once; the browser then holds a random session id
 * (stored hashed) instead of the token, and every form carries the session's CSRF token.
 */
export class ConsoleSessionService {
  constructor(private readonly d: { db: Database; clock: Clock; random: Random; adminToken: string }) {}

  async signIn(token: string): Promise<{ id: string; csrf: string; maxAgeSeconds: number }> {
    // No admin token configured means no console (and never an empty token that matches).
    if (!this.d.adminToken || typeof token !== 'string' || !safeEqual(token.trim(), this.d.adminToken))
      throw new DomainError('INVALID_TOKEN', 'That is not the admin token.');
    const id = this.d.random.token(32);
    const csrf = this.d.random.token(24);
    const now = this.d.clock.now();
    await consoleSessionsRepo.insert(this.d.db, {
      idHash: sha256(id),
      csrf,
      now,
      expiresAt: addSeconds(now, CONSOLE_SESSION_SECONDS),
    });
    return { id, csrf, maxAgeSeconds: CONSOLE_SESSION_SECONDS };
  }

  /** The session's CSRF token, if the cookie names a live session. */
  async find(id: string | undefined): Promise<{ csrf: string } | undefined> {
    if (!id || id.length > 100) return undefined;
    return consoleSessionsRepo.findLive(this.d.db, sha256(id), this.d.clock.now());
  }

  async signOut(id: string | undefined): Promise<void> {
    if (id) await consoleSessionsRepo.delete(this.d.db, sha256(id));
  }
}
