import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { clientsRepo } from '../../storage/repositories/clients.ts';
import { passkeysRepo } from '../../storage/repositories/passkeys.ts';
import { ssoSessionsRepo } from '../../storage/repositories/sso-sessions.ts';
import { statsRepo } from '../../storage/repositories/stats.ts';
import { searchUsers } from '../../storage/repositories/user-search.ts';
import { type UserRow, usersRepo } from '../../storage/repositories/users.ts';
import { recoveryCodesOf } from '../../storage/rules/recovery-codes.ts';
import type { ConnectedApps } from '../clients/connected-apps.ts';
import { noSuchUser } from '../errors.ts';
import { isUuid } from '../ids.ts';
import type { KycService } from '../kyc/kyc.ts';
import type { SessionService } from '../sessions/sessions.ts';
import type { Events } from '../webhooks/events.ts';
import { cursorOf, parseUserSearch, type UserSearchQuery } from './user-search.ts';

export interface AdminUserDeps {
  db: Database;
  clock: Clock;
  sessions: SessionService;
  kyc: KycService;
  connectedApps: ConnectedApps;
  events: Events;
}

/** The operator's view of accounts (D36): find, inspect, end sessions, lock. */
export class AdminUserService {
  constructor(private readonly d: AdminUserDeps) {}

  /** Live accounts found by an operator's search and filters, newest first, a page and its next cursor. */
  async search(query: UserSearchQuery): Promise<{ users: UserRow[]; nextCursor: string | null }> {
    const search = parseUserSearch(query);
    const rows = await searchUsers(this.d.db, { ...search, limit: search.limit + 1 });
    const users = rows.slice(0, search.limit);
    return { users, nextCursor: rows.length > search.limit ? cursorOf(users[users.length - 1]) : null };
  }

  /** How many live accounts there are in all (estimated from a sample in a large table). */
  total(): Promise<{ count: number; estimated: boolean }> {
    return statsRepo.liveAccounts(this.d.db);
  }

  async detail(id: string) {
    const user = isUuid(id) ? await usersRepo.findLiveById(this.d.db, id) : undefined;
    if (!user) throw noSuchUser();
    // The first page, the most recently used; the total says how many more there are.
    const [{ sessions, total }, kyc, apps, passkeys, recoveryCodes] = await Promise.all([
      this.d.sessions.listActive(id),
      this.d.kyc.status(id),
      this.d.connectedApps.list(id), // Which applications the person allowed
      passkeysRepo.ofUser(this.d.db, id),
      recoveryCodesOf(this.d.db, id),
    ]);
    // Each session with its application's name.
    const clientNames = await clientsRepo.namesOf(this.d.db, [...new Set(sessions.map((s) => s.client_id))]);
    return { user, sessions, sessionsTotal: total, kyc, apps, passkeys, recoveryCodes, clientNames };
  }

  /** Ends every session and single sign-on of the account and refuses its sign-ins until unlocked. */
  async lock(id: string): Promise<UserRow> {
    return this.d.db.transaction(async (tx) => {
      const user = isUuid(id) ? await usersRepo.setAdminLock(tx, id, this.d.clock.now()) : undefined;
      if (!user) throw noSuchUser();
      await this.d.sessions.revokeAllOfUser(tx, id, 'admin');
      await ssoSessionsRepo.removeAllOfUser(tx, id);
      await this.d.events.emit(tx, 'user.locked', {
        user_id: id,
        locked_at: this.d.clock.now().toISOString(),
      });
      return user;
    });
  }

  async unlock(id: string): Promise<UserRow> {
    return this.d.db.transaction(async (tx) => {
      const user = isUuid(id) ? await usersRepo.setAdminLock(tx, id, null) : undefined;
      if (!user) throw noSuchUser();
      await this.d.events.emit(tx, 'user.unlocked', {
        user_id: id,
        unlocked_at: this.d.clock.now().toISOString(),
      });
      return user;
    });
  }

  async revokeSession(userId: string, sessionId: string): Promise<void> {
    // An id that is no uuid names no account (and never reaches a uuid column).
    if (!isUuid(userId)) throw noSuchUser();
    return this.d.sessions.revokeOwn(userId, sessionId, 'admin');
  }
}
