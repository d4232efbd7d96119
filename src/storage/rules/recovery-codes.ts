// Recovery codes: a PIN reset that does not depend on the phone number.
//
// Rules it enforces:
// - A new set replaces the old one whole, in one statement: once it is written no code of the old set works.
// - A code is used once: the statement that marks it used is the race gate, so of parallel resets with the
//   same code exactly one goes on.
// - A code belongs to the account it was made for, and is looked for only among that account's unused codes.
import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

/** Writes the account's new set (each code's hash, all with the set's salt), ending the set before it. */
export async function replaceRecoveryCodes(
  q: Queryable,
  set: { userId: string; hashes: string[]; salt: Buffer; createdAt: Date },
): Promise<void> {
  await all(
    q,
    sql`WITH ended AS (DELETE FROM recovery_codes WHERE user_id = ${set.userId})
      INSERT INTO recovery_codes (user_id, code_hash, salt, created_at)
      SELECT ${set.userId}, hash, ${set.salt}, ${set.createdAt} FROM unnest(${set.hashes}::text[]) AS hash`,
  );
}

/** The live account of a number, and its unused codes' salt (null when it has none left). */
export function recoveryOfPhone(
  q: Queryable,
  phone: string,
): Promise<{ user_id: string; salt: Uint8Array | null } | undefined> {
  return first(
    q,
    sql`SELECT u.id AS user_id,
        (SELECT salt FROM recovery_codes WHERE user_id = u.id AND used_at IS NULL LIMIT 1) AS salt
      FROM users u WHERE u.phone = ${phone} AND u.deleted_at IS NULL`,
  );
}

/** Whether the account has this unused code (a look before the PIN's hash; the use below is the gate). */
export async function hasRecoveryCode(q: Queryable, userId: string, hash: string): Promise<boolean> {
  const found = await first(
    q,
    sql`SELECT 1 FROM recovery_codes WHERE user_id = ${userId} AND code_hash = ${hash} AND used_at IS NULL`,
  );
  return found !== undefined;
}

/** Marks the code used; answers how many of the set are left, or undefined when it was not there unused. */
export async function useRecoveryCode(
  q: Queryable,
  use: { userId: string; hash: string; now: Date },
): Promise<{ remaining: number } | undefined> {
  const used = await first<{ remaining: number }>(
    q,
    sql`WITH used AS (
        UPDATE recovery_codes SET used_at = ${use.now}
        WHERE user_id = ${use.userId} AND code_hash = ${use.hash} AND used_at IS NULL
        RETURNING code_hash
      )
      SELECT (SELECT count(*)::int FROM recovery_codes
          WHERE user_id = ${use.userId} AND used_at IS NULL) - 1 AS remaining
      FROM used`,
  );
  return used;
}

/** How many codes of the account's set are left, and when the set was made. */
export async function recoveryCodesOf(
  q: Queryable,
  userId: string,
): Promise<{ remaining: number; created_at: Date | null }> {
  const row = await first<{ remaining: number; created_at: Date | null }>(
    q,
    sql`SELECT count(*) FILTER (WHERE used_at IS NULL)::int AS remaining, max(created_at) AS created_at
      FROM recovery_codes WHERE user_id = ${userId}`,
  );
  return row ?? { remaining: 0, created_at: null };
}
