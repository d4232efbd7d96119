// Writing a user's profile fields, with the handle's cooldown.
//
// Rules it enforces:
// - The handle changes at most once per HANDLE_COOLDOWN_SECONDS: a change is written only if the last one is
//   at least that old (the handle chosen at sign-up starts no cooldown), and it starts a new cooldown. The
//   check is in the statement that writes, so two changes at once cannot both pass it. A handle an import
//   chose was never the person's: their first own change of it starts no cooldown either.
// - Only a live account is written.
// - Only the profile columns named in `ProfileFields` are written; their names come from the code, never
//   from a request. A handle another live account has is a unique violation (`users_handle_live`), which the
//   caller answers as a taken handle.
import type { Queryable } from '../db.ts';
import type { ProfileFields, UserRow } from '../repositories/users.ts';
import { first, type Sql, sql } from '../sql.ts';

/** One handle change per 30 days. */
export const HANDLE_COOLDOWN_SECONDS = 30 * 24 * 3600;

/** The profile columns and how each value is written. */
const PROFILE_COLUMNS: Record<keyof ProfileFields, (value: unknown) => Sql> = {
  name: (v) => sql`name = ${v}`,
  bio: (v) => sql`bio = ${v}`,
  avatar_url: (v) => sql`avatar_url = ${v}`,
  language: (v) => sql`language = ${v}`,
  handle: (v) => sql`handle = ${v}`,
  email: (v) => sql`email = ${v}`,
  metadata: (v) => sql`metadata = ${JSON.stringify(v)}::jsonb`,
};

export type ProfileWrite =
  | { written: true; account: UserRow }
  | { written: false; refusal: 'handle_cooldown' };

export async function writeProfile(
  q: Queryable,
  userId: string,
  fields: ProfileFields,
  now: Date,
): Promise<ProfileWrite> {
  const names = Object.keys(fields) as Array<keyof ProfileFields>;
  const sets = names.map((name) => PROFILE_COLUMNS[name](fields[name]));
  const changesHandle = names.includes('handle');
  const cooldownStart = new Date(now.getTime() - HANDLE_COOLDOWN_SECONDS * 1000);
  const account = await first<UserRow>(
    q,
    sql`UPDATE users SET ${sql.join(sets, ', ')}, updated_at = ${now}
        ${changesHandle ? sql`, handle_changed_at = CASE WHEN handle_from_import THEN NULL ELSE ${now}::timestamptz END, handle_from_import = false` : sql``}
      WHERE id = ${userId} AND deleted_at IS NULL
        ${changesHandle ? sql`AND (handle_changed_at IS NULL OR handle_changed_at <= ${cooldownStart})` : sql``}
      RETURNING *`,
  );
  return account ? { written: true, account } : { written: false, refusal: 'handle_cooldown' };
}
