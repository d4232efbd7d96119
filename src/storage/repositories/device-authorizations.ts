import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

/** RFC 8628: a device's request to sign in, as the verification page reads it. */
export interface DeviceAuthorizationRow {
  device_code_hash: string;
  user_code_hash: string;
  client_id: string;
  scope: string;
  status: 'pending' | 'approved' | 'denied' | 'redeemed';
  /** the authorization code its approval issued (hashed), which the device's poll redeems */
  code_hash: string | null;
  interval_seconds: number;
  last_polled_at: Date | null;
  created_at: Date;
  expires_at: Date;
}

export type NewDeviceAuthorization = Pick<
  DeviceAuthorizationRow,
  | 'device_code_hash'
  | 'user_code_hash'
  | 'client_id'
  | 'scope'
  | 'interval_seconds'
  | 'created_at'
  | 'expires_at'
>;

export const deviceAuthorizationsRepo = {
  /** False when the user code is taken already (a live request holds it), so another is drawn. */
  insert: async (q: Queryable, r: NewDeviceAuthorization): Promise<boolean> => {
    const inserted = await all(
      q,
      sql`INSERT INTO device_authorizations (device_code_hash, user_code_hash, client_id, scope, interval_seconds,
          created_at, expires_at)
        VALUES (${r.device_code_hash}, ${r.user_code_hash}, ${r.client_id}, ${r.scope}, ${r.interval_seconds},
          ${r.created_at}, ${r.expires_at})
        ON CONFLICT (user_code_hash) DO NOTHING RETURNING device_code_hash`,
    );
    return inserted.length === 1;
  },

  /** The request a typed user code names while the person may still decide it: pending and unexpired. */
  findPendingByUserCode: (q: Queryable, userCodeHash: string, now: Date) =>
    first<DeviceAuthorizationRow>(
      q,
      sql`SELECT * FROM device_authorizations
        WHERE user_code_hash = ${userCodeHash} AND status = 'pending' AND expires_at > ${now}`,
    ),
};
