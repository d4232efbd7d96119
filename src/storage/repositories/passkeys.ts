import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Uint8Array;
  counter: number;
  device_type: 'single_device' | 'multi_device';
  backed_up: boolean;
  transports: string[];
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  /** the session it was registered from (null: on the account page, or before this was recorded) */
  session_id: string | null;
}

export type NewPasskey = Omit<PasskeyRow, 'last_used_at'>;

/** `counter` comes back from PostgreSQL as a string (bigint). */
const row = (r: PasskeyRow & { counter: number | string }): PasskeyRow => ({
  ...r,
  counter: Number(r.counter),
});

export const passkeysRepo = {
  /** The account's passkeys, the oldest first. */
  ofUser: async (q: Queryable, userId: string) =>
    (
      await all<PasskeyRow>(q, sql`SELECT * FROM passkeys WHERE user_id = ${userId} ORDER BY created_at, id`)
    ).map(row),

  byCredentialId: async (q: Queryable, credentialId: string) => {
    const found = await first<PasskeyRow>(
      q,
      sql`SELECT * FROM passkeys WHERE credential_id = ${credentialId}`,
    );
    return found && row(found);
  },

  rename: async (q: Queryable, userId: string, id: string, name: string) => {
    const found = await first<PasskeyRow>(
      q,
      sql`UPDATE passkeys SET name = ${name} WHERE id = ${id} AND user_id = ${userId} RETURNING *`,
    );
    return found && row(found);
  },

  remove: async (q: Queryable, userId: string, id: string) =>
    (await all(q, sql`DELETE FROM passkeys WHERE id = ${id} AND user_id = ${userId} RETURNING id`)).length >
    0,

  /** A sign-in's use: the counter the authenticator reported, and when. */
  used: (q: Queryable, id: string, counter: number, at: Date) =>
    all(
      q,
      sql`UPDATE passkeys SET counter = greatest(counter, ${counter}), last_used_at = ${at} WHERE id = ${id}`,
    ),
};

/** The transports a browser may try for a stored passkey, as WebAuthn names them (others are dropped). */
export const transportsOf = (p: PasskeyRow) =>
  p.transports.filter((t): t is AuthenticatorTransport =>
    ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'].includes(t),
  );

type AuthenticatorTransport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';
