import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { type ConsentedApp, consentsRepo } from '../../storage/repositories/consents.ts';
import { DomainError } from '../errors.ts';
import type { SessionService } from '../sessions/sessions.ts';

export interface ConnectedAppsDeps {
  db: Database;
  clock: Clock;
  sessions: SessionService;
}

/**
 * The applications a user allowed on the consent page (remembered consent), and taking that
 * back: a consent given with one click is withdrawn as easily (GDPR Art. 7(3)), not by revoking sessions one
 * by one while the app signs in again silently.
 */
export class ConnectedApps {
  constructor(private readonly d: ConnectedAppsDeps) {}

  list(userId: string): Promise<ConsentedApp[]> {
    return consentsRepo.listAppsOfUser(this.d.db, userId, this.d.clock.now());
  }

  /**
   * The consent goes, then every session the user has with the app (`session.revoked`, `user_revoked`). The
   * consent's deletion waits for the code exchanges that hold it, so their sessions are ended too; an
   * exchange after it finds no consent and opens none (P102 in authorization-codes.ts). The next
   * authorization asks again.
   */
  async withdraw(userId: string, clientId: string): Promise<{ sessionsRevoked: number }> {
    return this.d.db.transaction(async (tx) => {
      if (!(await consentsRepo.removeOfThirdParty(tx, userId, clientId)))
        throw new DomainError('NOT_FOUND', 'this account has not allowed that application');
      const revoked = await this.d.sessions.revokeAllOfUserClient(tx, userId, clientId);
      return { sessionsRevoked: revoked.length };
    });
  }
}
