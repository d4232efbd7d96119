import { DEFAULT_RETENTION, type Retention } from '../config/retention-settings.ts';
import { addSeconds } from '../providers/clock.ts';
import type { Database } from '../storage/db.ts';
import { retentionPurges as purge } from '../storage/purges/retention-purges.ts';
import { purgeEndedSessions } from '../storage/purges/session-purge.ts';
import type { Job } from './runner.ts';

const DAY_SECONDS = 86_400;

/** Rows that can no longer matter, removed a day past the end in this column (the day covers clock skew). */
const EXPIRING: ReadonlyArray<readonly [table: string, column: string]> = [
  ['otps', 'expires_at'],
  ['temp_tokens', 'expires_at'],
  ['authorization_codes', 'expires_at'],
  ['sso_sessions', 'expires_at'],
  ['rate_counters', 'window_start'],
  ['console_sessions', 'expires_at'],
  ['challenge_uses', 'expires_at'],
  ['jwt_id_uses', 'expires_at'],
  ['pushed_authorization_requests', 'expires_at'],
  ['device_authorizations', 'expires_at'],
  ['initial_access_tokens', 'expires_at'],
  ['webauthn_challenges', 'expires_at'],
  ['network_verifications', 'expires_at'],
  ['sms_country_minutes', 'minute'],
];

/** The reason a delivery closed because its endpoint stayed disabled shows in the delivery log. */
export const DISABLED_ENDPOINT_REASON = 'the endpoint stayed disabled';

/**
 * Every hour: rows past their end (spent codes, dead tokens, ceremonies' challenges, silent checks, old rate windows,
 * ended sessions, unused KYC links), and rows past the retention the operator set (events and their delivery
 * log, back-channel logouts, messages, SIM check answers, KYC photos, the operators' trail, logos no client
 * shows, retired signing keys). Each count is logged with the run's duration.
 */
export function housekeeping(
  db: Database,
  settings: { retention?: Retention } = {},
): Job<Record<string, number>> {
  const keep = settings.retention ?? DEFAULT_RETENTION;
  const daysBefore = (now: Date, days: number) => addSeconds(now, -days * DAY_SECONDS);
  return {
    name: 'housekeeping',
    everySeconds: 3600,
    async run(now) {
      const cutoff = daysBefore(now, 1);
      const counts: Record<string, number> = {};
      for (const [table, column] of EXPIRING)
        counts[table] = await purge.olderThan(db, table, column, cutoff);
      counts.sessions = await purgeEndedSessions(db, cutoff, now);
      counts.kyc_links = await purge.staleKycLinks(db, cutoff);
      counts.message_codes = await purge.sealedCodes(db, now);

      counts.closed_deliveries = await purge.closeDeliveriesOfDisabled(
        db,
        addSeconds(now, -keep.disabledEndpointPendingHours * 3600),
        DISABLED_ENDPOINT_REASON,
      );
      const eventsBefore = daysBefore(now, keep.eventsDays);
      counts.outbox_events = await purge.events(db, eventsBefore);
      // The economics of codes are kept as long as events.
      counts.code_economics_hours = await purge.olderThan(db, 'code_economics_hours', 'hour', eventsBefore);
      // A stream's events not taken in that time (its account events' go with them) are dropped.
      counts.ssf_events = await purge.olderThan(db, 'ssf_events', 'created_at', eventsBefore);
      counts.sms_breaker_openings = await purge.olderThan(
        db,
        'sms_breaker_openings',
        'closed_at',
        eventsBefore,
      );
      // A logout's retries are over within 27 hours; the row is kept as long as events.
      counts.backchannel_logouts = await purge.olderThan(
        db,
        'backchannel_logouts',
        'created_at',
        eventsBefore,
      );
      counts.messages = await purge.olderThan(
        db,
        'messages',
        'created_at',
        daysBefore(now, keep.messagesDays),
      );
      counts.phone_checks = await purge.olderThan(
        db,
        'phone_checks',
        'checked_at',
        daysBefore(now, keep.phoneChecksDays),
      );
      counts.kyc_photos = await purge.kycPhotos(db, daysBefore(now, keep.kycPhotosDays), now);
      counts.admin_actions = await purge.olderThan(
        db,
        'admin_actions',
        'at',
        daysBefore(now, keep.adminActionsDays),
      );
      counts.logos = await purge.unusedLogos(db, daysBefore(now, keep.unusedLogosDays));
      counts.signing_keys = await purge.retiredKeys(db, daysBefore(now, keep.retiredKeysDays));
      return counts;
    },
  };
}
