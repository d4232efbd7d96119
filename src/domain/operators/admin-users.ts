import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { passkeysRepo } from '../../storage/repositories/passkeys.ts';
import { ssoSessionsRepo } from '../../storage/repositories/sso-sessions.ts';
import { type UserRow, usersRepo } from '../../storage/repositories/users.ts';
import { recoveryCodesOf } from '../../storage/rules/recovery-codes.ts';
import type { ConnectedApps } from '../clients/connected-apps.ts';
import { DomainError, noSuchUser } from '../errors.ts';
import { isUuid } from '../ids.ts';
import type { KycService } from '../kyc/kyc.ts';
import { parsePhone } from '../phone.ts';
import type { SessionService } from '../sessions/sessions.ts';

export interface AdminUserDeps {
  db: Database;
  clock: Clock;
  sessions: SessionService;
  kyc: KycService;
  connectedApps: ConnectedApps;
}

/** The operator's view of accounts (issue 8, D36): find, inspect, end sessions, lock. */
export class AdminUserService {
  constructor(private readonly d: AdminUserDeps) {}

  /** One live account by id, phone number (any format libphonenumber reads) or handle (with or without @). */
  /** The newest live accounts, newest first. */
  newest(limit = 50): Promise<UserRow[]> {
    return usersRepo.newestLive(this.d.db, limit);
  }

  async find(query: string | undefined): Promise<UserRow | undefined> {
    const q = typeof query === 'string' ? query.trim() : '';
    if (!q)
      throw new DomainError('INVALID_REQUEST', 'give an id, a phone number or a handle', { field: 'q' });
    if (isUuid(q)) return usersRepo.findLiveById(this.d.db, q);
    if (/^\+?[\d\s().-]{6,}$/.test(q)) {
      try {
        return await usersRepo.findLiveByPhone(this.d.db, parsePhone(q).e164);
      } catch {
        return undefined;
      }
    }
    return usersRepo.findLiveByHandle(this.d.db, q.replace(/^@/, '').toLowerCase());
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
    return { user, sessions, sessionsTotal: total, kyc, apps, passkeys, recoveryCodes };
  }

  /** Ends every session and single sign-on of the account and refuses its sign-ins until unlocked. */
  async lock(id: string): Promise<UserRow> {
    return this.d.db.transaction(async (tx) => {
      const user = isUuid(id) ? await usersRepo.setAdminLock(tx, id, this.d.clock.now()) : undefined;
      if (!user) throw noSuchUser();
      await this.d.sessions.revokeAllOfUser(tx, id, 'admin');
      await ssoSessionsRepo.removeAllOfUser(tx, id);
      return user;
    });
  }

  async unlock(id: string): Promise<UserRow> {
    const user = isUuid(id) ? await usersRepo.setAdminLock(this.d.db, id, null) : undefined;
    if (!user) throw noSuchUser();
    return user;
  }

  async revokeSession(userId: string, sessionId: string): Promise<void> {
    // An id that is no uuid names no account (and never reaches a uuid column).
    if (!isUuid(userId)) throw noSuchUser();
    return this.d.sessions.revokeOwn(userId, sessionId, 'admin');
  }
}
