import { addSeconds } from '../providers/clock.ts';
import { countRows, type Database } from '../storage/db.ts';
import { adminActionsRepo } from '../storage/repositories/admin-actions.ts';
import { kycRepo } from '../storage/repositories/kyc.ts';
import type { Job } from './runner.ts';

/** Events (and their delivery log) are kept this long, for replays; they hold phone numbers, so not longer. */
export const EVENT_RETENTION_SECONDS = 30 * 24 * 3600;

/** Messages to phones are kept this long for the operators to look into, then go (they hold phone numbers). */
export const MESSAGE_RETENTION_SECONDS = 30 * 24 * 3600;

/** SIM check answers are kept this long for the operators (they hold phone numbers); a known answer is reused for minutes only. */
export const PHONE_CHECK_RETENTION_SECONDS = 90 * 24 * 3600;

/**
 * Rows that can no longer matter, a day past their end: spent codes, dead tokens, passkey ceremonies' challenges, ended sessions (revoked,
 * or their refresh token run out, P59), old rate windows, unused KYC links; events past their retention
 * that no delivery still waits for, and back-channel logouts as old; SIM check answers after 90 days; KYC photos and the operators' trail past the retention the operator set.
 */
export function housekeeping(
  db: Database,
  retention: { kycRetentionDays?: number; adminActionsRetentionDays?: number } = {},
): Job {
  const { kycRetentionDays, adminActionsRetentionDays } = retention;
  return {
    name: 'housekeeping',
    everySeconds: 3600,
    async run(now) {
      const cutoff = addSeconds(now, -24 * 3600);
      const counts: Record<string, number> = {};
      for (const [table, column] of [
        ['otps', 'expires_at'],
        ['temp_tokens', 'expires_at'],
        ['authorization_codes', 'expires_at'],
        ['sso_sessions', 'expires_at'],
        ['rate_counters', 'window_start'],
        ['console_sessions', 'expires_at'],
        ['challenge_uses', 'expires_at'],
        ['webauthn_challenges', 'expires_at'],
        ['sms_country_minutes', 'minute'],
      ]) {
        counts[table] = await countRows(db, `DELETE FROM ${table} WHERE ${column} < $1 RETURNING 1`, [
          cutoff,
        ]);
      }
      counts.sessions = await countRows(
        db,
        'DELETE FROM sessions WHERE revoked_at < $1 OR refresh_expires_at < $1 RETURNING 1',
        [cutoff],
      );
      counts.outbox_events = await countRows(
        db,
        `DELETE FROM outbox_events o WHERE o.created_at < $1 AND NOT EXISTS (
           SELECT 1 FROM webhook_deliveries d WHERE d.event_id = o.id AND d.status = 'pending')
         RETURNING 1`,
        [addSeconds(now, -EVENT_RETENTION_SECONDS)],
      );
      // A logout's retries are over within 27 hours; the row is kept as long as events, then goes.
      counts.backchannel_logouts = await countRows(
        db,
        'DELETE FROM backchannel_logouts WHERE created_at < $1 RETURNING 1',
        [addSeconds(now, -EVENT_RETENTION_SECONDS)],
      );
      // Messages are kept 30 days for the operators; a code kept sealed for a re-send goes once it expires.
      counts.messages = await countRows(db, 'DELETE FROM messages WHERE created_at < $1 RETURNING 1', [
        addSeconds(now, -MESSAGE_RETENTION_SECONDS),
      ]);
      counts.message_codes = await countRows(
        db,
        'UPDATE messages SET sealed_code = NULL WHERE sealed_code IS NOT NULL AND code_expires_at < $1 RETURNING 1',
        [now],
      );
      counts.phone_checks = await countRows(
        db,
        'DELETE FROM phone_checks WHERE checked_at < $1 RETURNING 1',
        [addSeconds(now, -PHONE_CHECK_RETENTION_SECONDS)],
      );
      counts.kyc_links = await kycRepo.deleteStaleLinks(db, cutoff);
      // Issue 7: KYC photos go this many days after the decision when the operator sets a retention.
      if (kycRetentionDays !== undefined)
        counts.kyc_photos = await kycRepo.removePhotosDecidedBefore(
          db,
          addSeconds(now, -kycRetentionDays * 86400),
          now,
        );
      // The trail holds operators' addresses; kept as long as the operator says, not forever.
      if (adminActionsRetentionDays !== undefined)
        counts.admin_actions = await adminActionsRepo.removeBefore(
          db,
          addSeconds(now, -adminActionsRetentionDays * 86400),
        );
      return counts;
    },
  };
}
