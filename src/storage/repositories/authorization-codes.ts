import { batchInput } from '../batch-input.ts';
import { maybeOne, type Queryable } from '../db.ts';
import { type NewSessionWrite, SESSION_COLUMNS, sessionCtes, sessionParams } from './sessions.ts';
import { heldLiveAccountsCte, type UserRow } from './users.ts';

export interface AuthorizationCodeRow {
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scope: string;
  code_challenge: string;
  nonce: string | null;
  auth_time: Date;
  /** P88: the version of the account's PIN that the sign-in proved */
  pin_version: number;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  session_id: string | null;
}

/** A code exchange's write: the code (its hash) and the session it opens. */
export interface CodeRedemption {
  hash: string;
  opening: NewSessionWrite;
}

/**
 * What a code's first use did: the session opened, or why not (the client deleted, the account gone or locked,
 * or its PIN set again since the sign-in, P88).
 */
export type Redeemed =
  | { opened: true; account: UserRow }
  | { opened: false; clientLive: boolean; consented: boolean; account: UserRow | undefined };

export const authorizationCodesRepo = {
  insert: (q: Queryable, c: Omit<AuthorizationCodeRow, 'used_at' | 'session_id'>) =>
    q.query(
      `INSERT INTO authorization_codes (code_hash, client_id, user_id, redirect_uri, scope, code_challenge, nonce,
         auth_time, pin_version, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        c.code_hash,
        c.client_id,
        c.user_id,
        c.redirect_uri,
        c.scope,
        c.code_challenge,
        c.nonce,
        c.auth_time,
        c.pin_version,
        c.created_at,
        c.expires_at,
      ],
    ),

  /**
   * D24: single use; marking it used is the race gate. For a code that opens nothing (a check failed), so
   * that it cannot be tried again.
   */
  consume: (q: Queryable, hash: string, now: Date) =>
    maybeOne<{ code_hash: string }>(
      q,
      'UPDATE authorization_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL RETURNING code_hash',
      [hash, now],
    ),

  /**
   * D24, D15: exchanges, each in one statement with the others (P85), atomic without a transaction: the code
   * marked used with the id of the session it opens (a replay finds what to revoke), and the session with its
   * event, opened only while the client is live (P23, P55), the account live and not locked (P51) and its PIN
   * still the one the code's sign-in proved (P88), and, for a client that asks consent, while the user's
   * consent still covers the code's scope (P102). Their rows are held FOR SHARE, so a deletion, lock, PIN
   * reset or consent withdrawn committing meanwhile is either seen or waits, and then also ends this session. Each code is marked by an update of its own, by primary key (P57); a code the batch
   * holds twice is marked by one of them (a row is modified once per statement). The sessions and events are
   * written for all of them at once. Answers, in order: undefined for a code used already (a replay, or a
   * lost race); otherwise whether the session was opened, whether the client is live, and the account
   * (undefined when gone).
   */
  redeemMany: async (q: Queryable, exchanges: CodeRedemption[]): Promise<Array<Redeemed | undefined>> => {
    const input = batchInput(
      [...SESSION_COLUMNS, ['code_hash', 'text']],
      exchanges.map((e) => [...sessionParams(e.opening), e.hash]),
    );
    const ks = exchanges.map((_, i) => i + 1);
    const marks = ks.map(
      (k) => `code${k} AS (
         UPDATE authorization_codes SET used_at = ${input.value('now', k)}, session_id = ${input.value('id', k)}
         WHERE code_hash = ${input.value('code_hash', k)} AND used_at IS NULL RETURNING ${k} AS k, pin_version
       )`,
    );
    const rows = await q.query<
      UserRow & { k: number; opened: boolean; client_live: boolean; consented: boolean }
    >(
      `WITH ${input.cte}, ${marks.join(', ')}, code AS (
         ${ks.map((k) => `SELECT k, pin_version FROM code${k}`).join(' UNION ALL ')}
       ), client AS (
         SELECT c.client_id, c.first_party FROM (SELECT DISTINCT client_id FROM input) i, LATERAL (
           SELECT client_id, first_party FROM clients WHERE client_id = i.client_id AND deleted_at IS NULL
           OFFSET 0 FOR SHARE
         ) c
       ), consent AS (
         SELECT i.user_id, i.client_id, i.scope FROM (SELECT DISTINCT user_id, client_id, scope FROM input) i,
         LATERAL (
           SELECT 1 FROM consents WHERE user_id = i.user_id AND client_id = i.client_id
             AND string_to_array(i.scope, ' ') <@ string_to_array(scope, ' ') OFFSET 0 FOR SHARE
         ) c
       ), allowed AS (
         SELECT input.k FROM input JOIN client ON client.client_id = input.client_id
           LEFT JOIN consent ON (consent.user_id, consent.client_id, consent.scope)
             = (input.user_id, input.client_id, input.scope)
         WHERE client.first_party OR consent.user_id IS NOT NULL
       ), ${heldLiveAccountsCte('user_id')}, ${sessionCtes((i) => `input.${SESSION_COLUMNS[i][0]}`, {
         from: `code JOIN input USING (k) JOIN allowed USING (k) JOIN account ON account.id = input.user_id`,
         where: 'account.admin_locked_at IS NULL AND account.pin_version = code.pin_version',
         eventFrom: 'session JOIN input ON input.id = session.id',
       })}
       SELECT input.k, session.id IS NOT NULL AS opened, client.client_id IS NOT NULL AS client_live,
         allowed.k IS NOT NULL AS consented, account.*
       FROM input JOIN code USING (k) LEFT JOIN session ON session.id = input.id
         LEFT JOIN client ON client.client_id = input.client_id LEFT JOIN allowed USING (k)
         LEFT JOIN account ON account.id = input.user_id`,
      input.params,
    );
    const byK = new Map(rows.map((r) => [r.k, r]));
    return ks.map((k) => {
      const row = byK.get(k);
      if (!row) return undefined;
      const { k: _k, opened, client_live: clientLive, consented, ...account } = row;
      return opened
        ? { opened, account: account as UserRow }
        : { opened, clientLive, consented, account: account.id ? (account as UserRow) : undefined };
    });
  },

  find: (q: Queryable, hash: string) =>
    maybeOne<AuthorizationCodeRow>(q, 'SELECT * FROM authorization_codes WHERE code_hash = $1', [hash]),

  /** P85: the codes of these hashes (those that exist), in one statement; each by its key (P57). */
  findMany: (q: Queryable, hashes: string[]) => {
    const input = batchInput(
      [['code_hash', 'text']],
      hashes.map((h) => [h]),
    );
    return q.query<AuthorizationCodeRow>(
      `WITH ${input.cte} SELECT c.* FROM input, LATERAL (
         SELECT * FROM authorization_codes WHERE code_hash = input.code_hash OFFSET 0
       ) c`,
      input.params,
    );
  },
};
