// The profiles room: what an account shows of itself. It owns the profile fields and their rules, handles and
// their cooldown, avatars and the image library, metadata (JSON Merge Patch), and the /api/v1 user management
// built on them.
import { addSeconds, type Clock } from '../../providers/clock.ts';
import { type Database, type Queryable, uniqueViolation } from '../../storage/db.ts';
import { type ProfileFields, type UserRow, usersRepo } from '../../storage/repositories/users.ts';
import { HANDLE_COOLDOWN_SECONDS, writeProfile } from '../../storage/rules/profile-write.ts';
import { DomainError, noSuchUser } from '../errors.ts';
import { type Events, payloads } from '../webhooks/events.ts';
import { handleProblem } from './handle-rules.ts';
import { parseProfilePatch } from './profile-rules.ts';

export interface ProfileDeps {
  db: Database;
  clock: Clock;
  events: Events;
}

export type HandleCheck = {
  handle: string;
  available: boolean;
  reason: 'invalid' | 'reserved' | 'taken' | null;
};

/** Profiles of the REST surface: the owner's view and edits, the public view, handle availability. */
export class ProfileService {
  constructor(private readonly d: ProfileDeps) {}

  async get(userId: string): Promise<UserRow> {
    const user = await usersRepo.findLiveById(this.d.db, userId);
    if (!user) throw noSuchUser();
    return user;
  }

  /** PATCH /users/me. */
  update(userId: string, body: Record<string, unknown>): Promise<UserRow> {
    return this.apply(userId, parseProfilePatch(body));
  }

  /** Only supplied fields that differ change; user.updated names them, and nothing is written when none do. */
  async apply(userId: string, patch: ProfileFields): Promise<UserRow> {
    try {
      return await this.d.db.transaction((tx) => this.applyIn(tx, userId, patch));
    } catch (err) {
      if (uniqueViolation(err) === 'users_handle_live') {
        throw new DomainError('HANDLE_TAKEN', 'this handle is already in use', { field: 'handle' });
      }
      throw err;
    }
  }

  /** `apply` within a transaction of the caller's, for a change that must land with other writes or not at all. */
  async applyIn(tx: Queryable, userId: string, patch: ProfileFields): Promise<UserRow> {
    const now = this.d.clock.now();
    const current = await usersRepo.findLiveById(tx, userId);
    if (!current) throw noSuchUser();
    const changed = (Object.keys(patch) as Array<keyof ProfileFields>).filter((k) => patch[k] !== current[k]);
    if (!changed.length) return current;
    const fields = Object.fromEntries(changed.map((k) => [k, patch[k]])) as ProfileFields;
    const write = await writeProfile(tx, userId, fields, now);
    if (!write.written) {
      // The sign-up handle starts no cooldown; a change does. Read again: a concurrent change may
      // have started the cooldown after `current` was read.
      const changedAt = (await usersRepo.findLiveById(tx, userId))?.handle_changed_at ?? now;
      const retryAfter = addSeconds(changedAt, HANDLE_COOLDOWN_SECONDS);
      throw new DomainError('HANDLE_COOLDOWN', 'the handle was changed less than 30 days ago', {
        field: 'handle',
        retry_after: retryAfter.toISOString(),
      });
    }
    await this.d.events.emit(tx, 'user.updated', payloads.userUpdated(write.account, changed));
    return write.account;
  }

  /** Unknown and deleted handles alike answer NOT_FOUND. */
  async publicProfile(handle: string): Promise<UserRow> {
    const user =
      handleProblem(handle) === 'invalid' ? undefined : await usersRepo.findLiveByHandle(this.d.db, handle);
    if (!user) throw noSuchUser();
    return user;
  }

  /** `{handle, available, reason}` with reason null, invalid, reserved or taken. */
  async checkHandle(handle: string): Promise<HandleCheck> {
    const problem = handleProblem(handle);
    if (problem) return { handle, available: false, reason: problem };
    const taken = await usersRepo.handleInUse(this.d.db, handle);
    return { handle, available: !taken, reason: taken ? 'taken' : null };
  }
}
