import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { statsRepo } from '../../storage/repositories/stats.ts';

export const OVERVIEW_HOURS = 24;

/**
 * The console's overview: what happened in each of the last 24 hours. Sign-ups are user.created events,
 * sign-ins session.created ones (every sign-in, on either surface, opens a session; so do sign-up and PIN
 * reset), OTP sends the codes issued, webhook failures the failed attempts. Live sessions are estimated
 * from a sample once there are too many to count at a glance.
 */
export async function overview(db: Database, clock: Clock) {
  const end = clock.now();
  const [signups, signins, otpSends, webhookFailures, activeSessions] = await Promise.all([
    statsRepo.eventsPerHour(db, 'user.created', end, OVERVIEW_HOURS),
    statsRepo.eventsPerHour(db, 'session.created', end, OVERVIEW_HOURS),
    statsRepo.otpSendsPerHour(db, end, OVERVIEW_HOURS),
    statsRepo.webhookFailuresPerHour(db, end, OVERVIEW_HOURS),
    statsRepo.activeSessions(db, end),
  ]);
  return {
    end: end.toISOString(),
    hours: OVERVIEW_HOURS,
    series: { signups, signins, otp_sends: otpSends, webhook_failures: webhookFailures },
    active_sessions: activeSessions.count,
    active_sessions_estimated: activeSessions.estimated,
  };
}
