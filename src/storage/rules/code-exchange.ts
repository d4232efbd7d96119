// The authorization code exchange: whether a code opens a session, decided and written in one statement.
//
// Rules it enforces:
// - A code is used once. The first exchange marks it used (with the session it opens, so a replay knows what
//   to revoke); every later one finds it used and opens nothing.
// - A code that fails a check (expired, another client's, a wrong redirect or verifier) is used up all the
//   same, so it cannot be tried again (`burnCode`).
// - The client must still exist: a client deleted after the code was issued gets no session.
// - A client that asks consent needs the user's consent to still cover the code's whole scope.
// - The account must still exist, must not be locked by an operator, and its PIN must still be the one the
//   sign-in proved: a PIN reset since the sign-in voids the code.
// - The client, consent and account rows are held FOR SHARE while the session is written, so a deletion,
//   lock, PIN reset or withdrawn consent committing meanwhile is either seen here or waits, and then ends
//   this session too.
//
// Exchanges that arrive together are written in one statement (the caller batches them): each code is marked
// by an update of its own, by primary key, and each is answered exactly as it would be alone.
import type { Queryable } from '../db.ts';
import { DELIVERIES_OF_EVENT_CTE } from '../repositories/outbox.ts';
import type { NewSessionWrite } from '../repositories/sessions.ts';
import { SIGNALS_OF_EVENT_CTE } from '../repositories/ssf-events.ts';
import type { UserRow } from '../repositories/users.ts';
import { all, type Sql, sql } from '../sql.ts';

/** A code exchange's write: the code (its hash) and the session it opens. */
export interface CodeRedemption {
  hash: string;
  opening: NewSessionWrite;
}

/** Why a code opened no session. */
export type CodeExchangeRefusal =
  | 'code_already_used'
  | 'client_deleted'
  | 'consent_withdrawn'
  | 'account_gone'
  | 'account_locked'
  | 'pin_changed';

export type CodeExchangeOutcome =
  | { opened: true; account: UserRow }
  | { opened: false; refusal: CodeExchangeRefusal };

/** One exchange as a row of the statement's `input`, numbered `k` from 1. */
function inputRow({ hash, opening }: CodeRedemption, k: number): Sql {
  const { session, firstToken, created } = opening;
  return sql`(${k}::int, ${hash}::text, ${session.id}::uuid, ${session.user_id}::uuid, ${session.client_id}::text,
    ${session.device_name}::text, ${session.platform}::text, ${session.ip_address}::text, ${session.scope}::text,
    ${session.authTime ?? session.now}::timestamptz, ${session.amr ?? null}::text[], ${session.now}::timestamptz,
    ${firstToken.hash}::text, ${firstToken.expires_at}::timestamptz, ${session.dpopJkt ?? null}::text, ${created.id}::uuid, ${created.type}::text,
    ${JSON.stringify(created.data)}::text, ${created.createdAt}::timestamptz,
    ${created.facts ? JSON.stringify(created.facts) : null}::jsonb)`;
}

/** The code of exchange `k` marked used, if nobody used it yet, as the CTE `code<k>`. */
function markUsed({ hash, opening }: CodeRedemption, k: number): Sql {
  return sql`${sql.identifier(`code${k}`)} AS (
    UPDATE authorization_codes SET used_at = ${opening.session.now}::timestamptz, session_id = ${opening.session.id}::uuid
    WHERE code_hash = ${hash}::text AND used_at IS NULL
    RETURNING ${k}::int AS k, pin_version
  )`;
}

/** Marks a code used that opens nothing; true if this call did, false if it was used already. */
export async function burnCode(q: Queryable, hash: string, now: Date): Promise<boolean> {
  const burnt = await all(
    q,
    sql`UPDATE authorization_codes SET used_at = ${now} WHERE code_hash = ${hash} AND used_at IS NULL
        RETURNING code_hash`,
  );
  return burnt.length === 1;
}

/** Each exchange's outcome, in order. */
export async function exchangeCodes(
  q: Queryable,
  exchanges: CodeRedemption[],
): Promise<CodeExchangeOutcome[]> {
  const ks = exchanges.map((_, i) => i + 1);
  const rows = await all<UserRow & { k: number; refusal: CodeExchangeRefusal | null }>(
    q,
    sql`WITH input (k, code_hash, id, user_id, client_id, device_name, platform, ip_address, scope, auth_time, amr, now,
        refresh_hash, refresh_expires_at, dpop_jkt, event_id, event_type, event_data, event_at, event_facts)
      AS (VALUES ${sql.join(
        exchanges.map((e, i) => inputRow(e, i + 1)),
        ', ',
      )}),
    ${sql.join(
      exchanges.map((e, i) => markUsed(e, i + 1)),
      ', ',
    )},
    code AS (${sql.join(
      ks.map((k) => sql`SELECT k, pin_version FROM ${sql.identifier(`code${k}`)}`),
      ' UNION ALL ',
    )}),
    client AS (
      SELECT c.client_id, c.first_party FROM (SELECT DISTINCT client_id FROM input) i, LATERAL (
        SELECT client_id, first_party FROM clients WHERE client_id = i.client_id AND deleted_at IS NULL
        OFFSET 0 FOR SHARE
      ) c
    ),
    consent AS (
      SELECT i.user_id, i.client_id, i.scope FROM (SELECT DISTINCT user_id, client_id, scope FROM input) i,
      LATERAL (
        SELECT 1 FROM consents WHERE user_id = i.user_id AND client_id = i.client_id
          AND string_to_array(i.scope, ' ') <@ string_to_array(scope, ' ') OFFSET 0 FOR SHARE
      ) c
    ),
    allowed AS (
      SELECT input.k FROM input JOIN client ON client.client_id = input.client_id
        LEFT JOIN consent ON (consent.user_id, consent.client_id, consent.scope)
          = (input.user_id, input.client_id, input.scope)
      WHERE client.first_party OR consent.user_id IS NOT NULL
    ),
    account AS (
      SELECT a.* FROM (SELECT DISTINCT user_id AS id FROM input) i,
      LATERAL (SELECT * FROM users WHERE id = i.id AND deleted_at IS NULL OFFSET 0 FOR SHARE) a
    ),
    session AS (
      INSERT INTO sessions (id, user_id, client_id, device_name, platform, ip_address, scope, auth_time, amr,
        created_at, last_used_at, refresh_hash, refresh_issued_at, refresh_expires_at, dpop_jkt)
      SELECT input.id, input.user_id, input.client_id, input.device_name, input.platform, input.ip_address,
        input.scope, input.auth_time, input.amr, input.now, input.now, input.refresh_hash, input.now,
        input.refresh_expires_at, input.dpop_jkt
      FROM code JOIN input USING (k) JOIN allowed USING (k) JOIN account ON account.id = input.user_id
      WHERE account.admin_locked_at IS NULL AND account.pin_version = code.pin_version
      RETURNING *
    ),
    event AS (
      INSERT INTO outbox_events (id, type, data, created_at, facts)
      SELECT input.event_id, input.event_type, input.event_data::json, input.event_at, input.event_facts
      FROM session JOIN input ON input.id = session.id
      RETURNING id, type, data, created_at, facts
    ),
    ${sql.constant(DELIVERIES_OF_EVENT_CTE)},
    ${sql.constant(SIGNALS_OF_EVENT_CTE)}
    SELECT input.k,
      CASE
        WHEN session.id IS NOT NULL THEN NULL
        WHEN client.client_id IS NULL THEN 'client_deleted'
        WHEN allowed.k IS NULL THEN 'consent_withdrawn'
        WHEN account.id IS NULL THEN 'account_gone'
        WHEN account.admin_locked_at IS NOT NULL THEN 'account_locked'
        ELSE 'pin_changed'
      END AS refusal,
      account.*
    FROM input JOIN code USING (k) LEFT JOIN session ON session.id = input.id
      LEFT JOIN client ON client.client_id = input.client_id LEFT JOIN allowed USING (k)
      LEFT JOIN account ON account.id = input.user_id`,
  );
  const byK = new Map(rows.map((row) => [row.k, row]));
  return ks.map((k): CodeExchangeOutcome => {
    const row = byK.get(k);
    if (!row) return { opened: false, refusal: 'code_already_used' };
    const { k: _k, refusal, ...account } = row;
    return refusal ? { opened: false, refusal } : { opened: true, account: account as UserRow };
  });
}
