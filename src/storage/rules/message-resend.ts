// The one re-send of a code whose message the vendor reported failed.
//
// Rules it enforces:
// - A message is re-sent at most once: the first failure report claims it (`resent`), and of two reports that
//   arrive at once exactly one does; later reports find it claimed. A re-send is recorded as claimed already,
//   so a code is re-sent once at most, whatever becomes of the re-send.
// - Only a code's message is re-sent, only while that code lives: not used, not replaced by a newer code, not
//   expired.
// - The sealed code is handed out only with the claim.
import type { Queryable } from '../db.ts';
import { first, sql } from '../sql.ts';

export interface ResendClaim {
  phone: string;
  channel: string;
  provider: string;
  sealed_code: string;
  otp_id: string;
  code_expires_at: Date;
  language: string;
}

/** Claims the message's one re-send; undefined when it is not to be re-sent. */
export function claimResend(q: Queryable, messageId: string, now: Date): Promise<ResendClaim | undefined> {
  return first<ResendClaim>(
    q,
    sql`UPDATE messages m SET resent = true
      FROM otps o
      WHERE m.id = ${messageId} AND m.kind = 'code' AND NOT m.resent AND m.sealed_code IS NOT NULL
        AND m.code_expires_at > ${now} AND o.id = m.otp_id AND o.consumed_at IS NULL AND o.expires_at > ${now}
      RETURNING m.phone, m.channel, m.provider, m.sealed_code, m.otp_id, m.code_expires_at, m.language`,
  );
}
