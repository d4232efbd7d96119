import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { usersRepo } from '../../storage/repositories/users.ts';
import { fieldError, noSuchUser } from '../errors.ts';
import type { SessionService } from '../sessions/sessions.ts';
import { type Events, payloads } from '../webhooks/events.ts';
import { pinCheckRefusal } from './account-errors.ts';
import type { AccountService } from './accounts.ts';

/** Spec: the literal phrase DELETE /users/me requires. */
export const DELETE_CONFIRMATION = 'DELETE MY ACCOUNT';
/** Spec and D4: the row is hard-deleted 30 days after deletion. */
export const HARD_DELETE_AFTER_SECONDS = 30 * 24 * 3600;

export interface AccountDeletionDeps {
  db: Database;
  clock: Clock;
  events: Events;
  sessions: SessionService;
  accounts: AccountService;
}

export class AccountDeletionService {
  constructor(private readonly d: AccountDeletionDeps) {}

  /** Confirmed by the phrase and the PIN (which counts toward the PIN lock). */
  async deleteWithPin(
    userId: string,
    body: { pin: string; confirmation: string },
  ): Promise<{ deleted: true; hard_delete_at: string }> {
    if (body.confirmation !== DELETE_CONFIRMATION) {
      throw fieldError(
        'INVALID_REQUEST',
        'confirmation',
        `confirmation must be the phrase "${DELETE_CONFIRMATION}"`,
      );
    }
    const user = await usersRepo.findLiveById(this.d.db, userId);
    if (!user) throw noSuchUser();
    const checked = await this.d.accounts.verifyPinOf(user, body.pin);
    return this.delete(userId, checked.pin_version);
  }

  /**
   * Unusable at once: every session revoked (account_deleted), user.deleted written, phone and handle
   * free; the purge job removes the rows 30 days later. Confirmed by a PIN (`pinVersion`), only while
   * that PIN is still the account's.
   */
  async delete(userId: string, pinVersion?: number): Promise<{ deleted: true; hard_delete_at: string }> {
    return this.d.db.transaction(async (tx) => {
      const user = await usersRepo.markDeleted(tx, userId, this.d.clock.now(), pinVersion);
      if (!user) throw pinVersion === undefined ? noSuchUser() : await pinCheckRefusal(tx, userId);
      await this.d.sessions.revokeAllOfUser(tx, userId, 'account_deleted');
      await this.d.events.emit(tx, 'user.deleted', payloads.userDeleted(user));
      return {
        deleted: true as const,
        hard_delete_at: addSeconds(user.deleted_at as Date, HARD_DELETE_AFTER_SECONDS).toISOString(),
      };
    });
  }
}
