// What a PIN reset ends besides the sessions: the ways in that were made under the old PIN's authority.
//
// Rules it enforces:
// - A reset ends every passkey and the recovery-code set made since the PIN was last set (by the reset before
//   it, or when the account was made): once the PIN is suspect, so is everything made with it.
// - A reset by a recovery code ends that code's set too, whenever the set was made.
// - The reset records when it set the PIN, so the next reset's window starts there, and so a passkey or a set
//   asked for by someone who signed in before it is refused (passkey-register.ts, recovery-codes.ts).
// - It runs in the reset's transaction, after the statement that wrote the new PIN, which holds the account's
//   row: a registration that waits for that row sees the new time and is refused.
import type { Queryable } from '../db.ts';
import { first, sql } from '../sql.ts';

export interface EndedWaysIn {
  /** the passkeys ended, by id */
  passkeyIds: string[];
  /** whether a recovery-code set was ended */
  recoveryCodes: boolean;
}

export async function endWaysMadeUnderOldPin(
  q: Queryable,
  reset: { userId: string; now: Date; byRecoveryCode: boolean },
): Promise<EndedWaysIn> {
  const ended = await first<{ passkey_ids: string[] | null; recovery_codes: boolean }>(
    q,
    sql`WITH account AS (
        SELECT id, coalesce(pin_set_at, created_at) AS pin_set_since FROM users WHERE id = ${reset.userId}
      ),
      ended_passkeys AS (
        DELETE FROM passkeys p USING account a
        WHERE p.user_id = a.id AND p.created_at >= a.pin_set_since
        RETURNING p.id
      ),
      ended_set AS (
        DELETE FROM recovery_code_sets s USING account a
        WHERE s.user_id = a.id AND (s.created_at >= a.pin_set_since OR ${reset.byRecoveryCode})
        RETURNING s.user_id
      ),
      pin_set AS (UPDATE users SET pin_set_at = ${reset.now} WHERE id = ${reset.userId})
      SELECT (SELECT array_agg(id::text) FROM ended_passkeys) AS passkey_ids,
        EXISTS (SELECT 1 FROM ended_set) AS recovery_codes`,
  );
  return { passkeyIds: ended?.passkey_ids ?? [], recoveryCodes: ended?.recovery_codes ?? false };
}
