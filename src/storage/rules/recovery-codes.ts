// Recovery codes: a way back in that does not depend on the phone number.
//
// Rules it enforces:
// - An account has at most one set. A new set replaces the old one whole, in one transaction that holds the
//   account's row: once it is written no code of the old set works.
// - A set is made only for a live account, and only for a caller who signed in after the PIN was last set: a
//   sign-in from before a PIN reset makes no new way back in (reset-ends-ways-in.ts).
// - A code is used once: the statement that marks it used is the race gate, so of parallel uses of the same
//   code exactly one goes on.
// - A code belongs to the account it was made for, and is looked for only among that account's unused codes.
import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export interface NewRecoverySet {
  userId: string;
  /** each code's keyed hash */
  hashes: string[];
  /** the set's own key for those hashes, sealed */
  codeKeyEnc: string;
  createdAt: Date;
  /** the session it is made from (null on the account page) */
  sessionId: string | null;
  /** when the caller signed in */
  signedInAt: Date;
}

export type SetKept = { kept: true } | { kept: false; refusal: 'no_account' | 'signed_in_before_pin_reset' };

/** Called in a transaction: the account's row is held until it commits. */
export async function replaceRecoveryCodes(q: Queryable, set: NewRecoverySet): Promise<SetKept> {
  const account = await first<{ pin_set_at: Date | null }>(
    q,
    sql`SELECT pin_set_at FROM users WHERE id = ${set.userId} AND deleted_at IS NULL FOR UPDATE`,
  );
  if (!account) return { kept: false, refusal: 'no_account' };
  if (account.pin_set_at && account.pin_set_at > set.signedInAt)
    return { kept: false, refusal: 'signed_in_before_pin_reset' };
  // Ending the set before ends its codes with it (their foreign key cascades).
  await all(q, sql`DELETE FROM recovery_code_sets WHERE user_id = ${set.userId}`);
  await all(
    q,
    sql`INSERT INTO recovery_code_sets (user_id, code_key_enc, created_at, session_id)
      VALUES (${set.userId}, ${set.codeKeyEnc}, ${set.createdAt}, ${set.sessionId})`,
  );
  await all(
    q,
    sql`INSERT INTO recovery_codes (user_id, code_hash, created_at)
      SELECT ${set.userId}, hash, ${set.createdAt} FROM unnest(${set.hashes}::text[]) AS hash`,
  );
  return { kept: true };
}

/**
 * How the unused codes of a number's live account are hashed: the set's sealed key, or (a set made before
 * keyed hashes) its argon2id salt. `set` is undefined when the account has no code left.
 */
export interface RecoveryOfPhone {
  user_id: string;
  set?: { code_key_enc: string | null; salt: Uint8Array | null };
}

export async function recoveryOfPhone(q: Queryable, phone: string): Promise<RecoveryOfPhone | undefined> {
  const row = await first<{
    user_id: string;
    code_key_enc: string | null;
    salt: Uint8Array | null;
    has_unused: boolean;
  }>(
    q,
    sql`SELECT u.id AS user_id, s.code_key_enc,
        (SELECT salt FROM recovery_codes WHERE user_id = u.id AND used_at IS NULL LIMIT 1) AS salt,
        EXISTS (SELECT 1 FROM recovery_codes WHERE user_id = u.id AND used_at IS NULL) AS has_unused
      FROM users u LEFT JOIN recovery_code_sets s ON s.user_id = u.id
      WHERE u.phone = ${phone} AND u.deleted_at IS NULL`,
  );
  if (!row) return undefined;
  const set = row.has_unused ? { code_key_enc: row.code_key_enc, salt: row.salt } : undefined;
  return { user_id: row.user_id, set };
}

/** Whether the account has this unused code (a look before the work that follows; the use below is the gate). */
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

/** How many codes of the account's set are left, when the set was made, and the session it was made from. */
export async function recoveryCodesOf(
  q: Queryable,
  userId: string,
): Promise<{ remaining: number; created_at: Date | null; session_id: string | null }> {
  const row = await first<{ remaining: number; created_at: Date | null; session_id: string | null }>(
    q,
    sql`SELECT (SELECT count(*) FILTER (WHERE used_at IS NULL)::int FROM recovery_codes WHERE user_id = ${userId})
        AS remaining, s.created_at, s.session_id
      FROM (SELECT 1) one LEFT JOIN recovery_code_sets s ON s.user_id = ${userId}`,
  );
  return row ?? { remaining: 0, created_at: null, session_id: null };
}
