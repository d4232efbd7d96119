// A device's request to sign in (RFC 8628): decided by the person once, redeemed by the device once.
//
// Rules it enforces:
// - The person allows or denies a request once, while it is pending and unexpired; a second decision (another
//   tab, a late click) finds it decided and changes nothing.
// - A device polls with its device code, and only the client it was issued to may: another client's poll finds
//   nothing.
// - A poll sooner than the request's interval after the last one, while the person has not decided, is told to
//   slow down, and the interval grows by 5 seconds for every poll after it (RFC 8628 §3.5).
// - An allowed request is redeemed by the first poll after the approval, before it expires, in the same
//   statement that reads it: two polls at once get one set of tokens, and every later poll is refused.
import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

/** RFC 8628 §3.5: how much a poll that came too soon adds to the interval, in seconds. */
export const SLOW_DOWN_STEP_SECONDS = 5;

/** Allows (with the hash of the code its approval issued) or denies a pending request; false if it was not. */
export async function decideDeviceAuthorization(
  q: Queryable,
  deviceCodeHash: string,
  decision: { allowedWithCode: string } | 'denied',
  now: Date,
): Promise<boolean> {
  const status = decision === 'denied' ? 'denied' : 'approved';
  const codeHash = decision === 'denied' ? null : decision.allowedWithCode;
  const decided = await all(
    q,
    sql`UPDATE device_authorizations SET status = ${status}, code_hash = ${codeHash}
      WHERE device_code_hash = ${deviceCodeHash} AND status = 'pending' AND expires_at > ${now}
      RETURNING device_code_hash`,
  );
  return decided.length === 1;
}

type DeviceStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

/** What a device's poll found, before this poll changed it. */
export type DevicePoll =
  | { found: false }
  | {
      found: true;
      /** the request's status as the poll found it; `approved` (unexpired) means this poll redeemed it */
      was: DeviceStatus;
      expired: boolean;
      /** a pending request's poll that came sooner than its interval after the last one */
      tooSoon: boolean;
      /** the approval's authorization code (hashed), when this poll redeemed it */
      codeHash: string | null;
    };

/** One poll of a device code by its client: counted, slowed and (when allowed) redeemed in one statement. */
export async function pollDeviceCode(
  q: Queryable,
  deviceCodeHash: string,
  clientId: string,
  now: Date,
): Promise<DevicePoll> {
  const row = await first<{
    was: DeviceStatus;
    code_hash: string | null;
    expired: boolean;
    too_soon: boolean;
  }>(
    q,
    sql`WITH prev AS (
        SELECT device_code_hash, status, code_hash, expires_at,
          (last_polled_at IS NOT NULL AND last_polled_at > ${now}::timestamptz - make_interval(secs => interval_seconds))
            AS too_soon
        FROM device_authorizations
        WHERE device_code_hash = ${deviceCodeHash} AND client_id = ${clientId}
        FOR UPDATE
      ),
      polled AS (
        UPDATE device_authorizations d SET
          last_polled_at = ${now}::timestamptz,
          interval_seconds = d.interval_seconds
            + CASE WHEN prev.status = 'pending' AND prev.too_soon THEN ${SLOW_DOWN_STEP_SECONDS}::int ELSE 0 END,
          status = CASE WHEN prev.status = 'approved' AND prev.expires_at > ${now}::timestamptz THEN 'redeemed'
            ELSE prev.status END
        FROM prev WHERE d.device_code_hash = prev.device_code_hash
        RETURNING d.device_code_hash
      )
      SELECT prev.status AS was, prev.code_hash, prev.expires_at <= ${now}::timestamptz AS expired, prev.too_soon
      FROM prev JOIN polled USING (device_code_hash)`,
  );
  if (!row) return { found: false };
  const redeemed = row.was === 'approved' && !row.expired;
  return {
    found: true,
    was: row.was,
    expired: row.expired,
    tooSoon: row.too_soon,
    codeHash: redeemed ? row.code_hash : null,
  };
}
