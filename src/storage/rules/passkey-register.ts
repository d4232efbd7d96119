// Keeping a new passkey.
//
// Rules it enforces:
// - An account keeps at most PASSKEYS_PER_ACCOUNT passkeys: the account's row is locked while they are
//   counted, so parallel registrations cannot pass the limit together.
// - Only a live account keeps a new passkey.
// - A credential belongs to one account: a credential id already kept is refused, whoever keeps it.
// - A passkey is kept only for a caller who signed in after the PIN was last set: a sign-in from before a PIN
//   reset makes no new way back in (reset-ends-ways-in.ts). The account's row, read under its lock, is the
//   one a reset that committed meanwhile wrote.
import type { Queryable } from '../db.ts';
import type { NewPasskey } from '../repositories/passkeys.ts';
import { first, sql } from '../sql.ts';

export const PASSKEYS_PER_ACCOUNT = 20;

export type PasskeyKept =
  | { kept: true }
  | { kept: false; refusal: 'no_account' | 'too_many' | 'credential_known' | 'signed_in_before_pin_reset' };

/** Called in a transaction: the account's lock lasts until it commits. */
export async function keepPasskey(q: Queryable, p: NewPasskey, signedInAt: Date): Promise<PasskeyKept> {
  const account = await first<{ passkeys: number; known: boolean; pin_set_at: Date | null }>(
    q,
    sql`SELECT (SELECT count(*)::int FROM passkeys WHERE user_id = u.id) AS passkeys,
        EXISTS (SELECT 1 FROM passkeys WHERE credential_id = ${p.credential_id}) AS known, u.pin_set_at
      FROM users u WHERE u.id = ${p.user_id} AND u.deleted_at IS NULL FOR UPDATE`,
  );
  if (!account) return { kept: false, refusal: 'no_account' };
  if (account.pin_set_at && account.pin_set_at > signedInAt)
    return { kept: false, refusal: 'signed_in_before_pin_reset' };
  if (account.known) return { kept: false, refusal: 'credential_known' };
  if (account.passkeys >= PASSKEYS_PER_ACCOUNT) return { kept: false, refusal: 'too_many' };
  await first(
    q,
    sql`INSERT INTO passkeys (id, user_id, credential_id, public_key, counter, device_type, backed_up,
        transports, name, created_at, session_id)
      VALUES (${p.id}, ${p.user_id}, ${p.credential_id}, ${p.public_key}, ${p.counter}, ${p.device_type},
        ${p.backed_up}, ${p.transports}, ${p.name}, ${p.created_at}, ${p.session_id})`,
  );
  return { kept: true };
}
