import type { Clock } from '../../providers/clock.ts';
import { type Database, uniqueViolation } from '../../storage/db.ts';
import { type UserRow, type UserSearchKey, usersRepo } from '../../storage/repositories/users.ts';
import type { AccountDeletionService } from '../accounts/account-deletion.ts';
import { parseName } from '../accounts/account-inputs.ts';
import { DomainError, noSuchUser } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { requireRecentSignIn, requireScope } from '../oauth/api-permissions.ts';
import { wholeNumberParam } from '../paging.ts';
import { parsePhone } from '../phone.ts';
import { assertMetadata, mergePatch } from './merge-patch.ts';
import type { ProfileService } from './profiles.ts';

export interface ApiUserDeps {
  db: Database;
  clock: Clock;
  profiles: ProfileService;
  deletion: AccountDeletionService;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** What a token's scopes let a client see of the user on /api/v1; id and created_at always. */
export function scopedUser(u: UserRow, scope: string, fields: string[]): Record<string, unknown> {
  const scopes = new Set(scope.split(' '));
  const needs: Record<string, string> = {
    phone: 'phone',
    email: 'email',
    name: 'profile',
    avatar_url: 'profile',
    kyc_status: 'kyc',
    kyc_country: 'kyc',
    kyc_birthday: 'kyc',
    kyc_verified_at: 'kyc',
    metadata: 'profile',
  };
  const value = (f: string) =>
    f === 'kyc_status' ? u.kyc_status.toUpperCase() : (u as unknown as Record<string, unknown>)[f];
  return Object.fromEntries(
    fields.filter((f) => !needs[f] || scopes.has(needs[f])).map((f) => [f, value(f) ?? null]),
  );
}

/** A unique e-mail address another account has: EMAIL_TAKEN; anything else as it is. */
const emailTaken = (err: unknown): never => {
  if (uniqueViolation(err) === 'users_email_live')
    throw new DomainError('EMAIL_TAKEN', 'this e-mail address is in use');
  throw err;
};

/** The spec's /api/v1 user management over the one account store. */
export class ApiUserService {
  constructor(private readonly d: ApiUserDeps) {}

  async me(userId: string): Promise<UserRow> {
    return this.d.profiles.get(userId).catch(emailTaken);
  }

  /** name (1-100), email (valid, unique), metadata (merged, D22): PATCH needs profile:write, and email to set email. */
  async update(userId: string, scope: string, body: Record<string, unknown>): Promise<UserRow> {
    requireScope(scope, 'profile:write');
    const allowed = ['name', 'email', 'metadata'];
    const extra = Object.keys(body).find((k) => !allowed.includes(k));
    if (extra)
      throw new DomainError(
        'INVALID_REQUEST',
        `${extra} cannot be changed here; editable: ${allowed.join(', ')}`,
      );
    try {
      const patch: { name?: string | null; email?: string | null; metadata?: Record<string, unknown> } = {};
      if ('name' in body) {
        if (body.name === null) throw new DomainError('INVALID_REQUEST', 'name must be 1-100 characters');
        patch.name = parseName(body.name);
      }
      if ('email' in body) {
        requireScope(scope, 'email');
        const email = typeof body.email === 'string' ? body.email.trim() : '';
        if (email.length > 254 || !EMAIL.test(email))
          throw new DomainError('INVALID_EMAIL', 'email must be a valid e-mail address');
        patch.email = email;
      }
      if ('metadata' in body) patch.metadata = await this.mergedMetadata(userId, body.metadata);
      return await this.d.profiles.apply(userId, patch);
    } catch (err) {
      return emailTaken(err);
    }
  }

  /** JSON Merge Patch (RFC 7396); the result must fit the metadata bounds. */
  async patchMetadata(userId: string, scope: string, body: unknown): Promise<Record<string, unknown>> {
    requireScope(scope, 'profile:write');
    try {
      const metadata = await this.mergedMetadata(userId, body);
      return (await this.d.profiles.apply(userId, { metadata })).metadata;
    } catch (err) {
      return emailTaken(err);
    }
  }

  private async mergedMetadata(userId: string, patch: unknown): Promise<Record<string, unknown>> {
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
      throw new DomainError('INVALID_REQUEST', 'metadata must be a JSON object');
    }
    const merged = mergePatch((await this.d.profiles.get(userId)).metadata, patch);
    assertMetadata(merged);
    return merged;
  }

  /** D4 through the OAuth surface: `{confirm: true}`, account:delete and a recent sign-in. */
  async delete(
    holder: { userId: string; scope: string; authTime: Date },
    body: Record<string, unknown>,
  ): Promise<void> {
    const { userId, scope, authTime } = holder;
    requireScope(scope, 'account:delete');
    requireRecentSignIn(authTime, this.d.clock.now());
    if (body.confirm !== true) throw new DomainError('INVALID_REQUEST', 'confirm must be true');
    await this.d.deletion.delete(userId).catch(emailTaken);
  }

  async byId(id: string): Promise<UserRow> {
    const user = isUuid(id) ? await usersRepo.findLiveById(this.d.db, id) : undefined;
    if (!user) throw noSuchUser();
    return user;
  }

  /** By E.164 phone or by the id an import kept (`external_id`), with limit (1-100, default 20) and starting_after. */
  async search(query: Record<string, unknown>): Promise<{ data: UserRow[]; has_more: boolean }> {
    const limit = wholeNumberParam(query.limit, 1, 100, 20);
    if (limit === undefined)
      throw new DomainError('INVALID_REQUEST', 'limit must be a whole number from 1 to 100');
    const after = query.starting_after;
    if (after !== undefined && (typeof after !== 'string' || !isUuid(after))) {
      throw new DomainError('INVALID_REQUEST', 'starting_after must be a user id');
    }
    const rows = await usersRepo.liveSearchPage(
      this.d.db,
      searchKey(query),
      limit + 1,
      after as string | undefined,
    );
    return { data: rows.slice(0, limit), has_more: rows.length > limit };
  }
}

/** What a search goes by: the phone, or else the external id. */
function searchKey(query: Record<string, unknown>): UserSearchKey {
  if (query.phone === undefined && typeof query.external_id === 'string' && query.external_id !== '')
    return { column: 'external_id', value: query.external_id };
  try {
    return { column: 'phone', value: parsePhone(query.phone).e164 };
  } catch {
    throw new DomainError('INVALID_REQUEST', 'give phone (an E.164 number, URL-encoded) or external_id');
  }
}
