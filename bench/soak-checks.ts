import type { Retention } from '../src/config/retention-settings.ts';
import { addSeconds } from '../src/providers/clock.ts';
import type { Database } from '../src/storage/db.ts';

/** The tables that grow with use. */
const GROWING = [
  'users',
  'sessions',
  'consents',
  'sso_sessions',
  'authorization_codes',
  'otps',
  'temp_tokens',
  'outbox_events',
  'webhook_deliveries',
  'webhook_attempts',
  'messages',
  'rate_counters',
  'challenge_uses',
  'sms_country_minutes',
  'admin_actions',
  'backchannel_logouts',
];

export async function tableRows(db: Database): Promise<Record<string, number>> {
  const rows: Record<string, number> = {};
  for (const table of GROWING)
    rows[table] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  return rows;
}

/** Rows and bytes (with indexes and TOAST) per live account, per table, as a Markdown table. */
export async function tableBytes(db: Database): Promise<string[]> {
  const [{ n: accounts }] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM users WHERE deleted_at IS NULL',
  );
  const lines = [
    `| table (${accounts} live accounts) | rows | rows per account | bytes per account |`,
    '|---|---|---|---|',
  ];
  let total = 0;
  for (const [table, rows] of Object.entries(await tableRows(db))) {
    const [{ bytes }] = await db.query<{ bytes: number }>(
      `SELECT pg_total_relation_size('${table}')::float8 AS bytes`,
    );
    total += bytes;
    lines.push(`| ${table} | ${rows} | ${(rows / accounts).toFixed(2)} | ${(bytes / accounts).toFixed(0)} |`);
  }
  lines.push(`| all of these | | | ${(total / accounts).toFixed(0)} |`);
  return lines;
}

/**
 * What must be gone after the last hourly run at `now` (an hour's slack for the run's own hour): each check's
 * count of rows still there, which must be 0.
 */
export async function soakChecks(db: Database, now: Date, keep: Retention): Promise<string[]> {
  const day = 86_400;
  const slack = 3600;
  const before = (seconds: number) => addSeconds(now, -seconds - slack);
  const checks: Array<[string, string, Date]> = [
    ['codes a day past their end', 'SELECT count(*)::int AS n FROM otps WHERE expires_at < $1', before(day)],
    ['temp tokens', 'SELECT count(*)::int AS n FROM temp_tokens WHERE expires_at < $1', before(day)],
    [
      'authorization codes',
      'SELECT count(*)::int AS n FROM authorization_codes WHERE expires_at < $1',
      before(day),
    ],
    ['SSO sessions', 'SELECT count(*)::int AS n FROM sso_sessions WHERE expires_at < $1', before(day)],
    ['rate windows', 'SELECT count(*)::int AS n FROM rate_counters WHERE window_start < $1', before(day)],
    ['revoked sessions', 'SELECT count(*)::int AS n FROM sessions WHERE revoked_at < $1', before(day)],
    [
      'sessions run out (the sweep takes a day more)',
      'SELECT count(*)::int AS n FROM sessions WHERE revoked_at IS NULL AND refresh_expires_at < $1',
      before(2 * day),
    ],
    [
      'events past their retention',
      `SELECT count(*)::int AS n FROM outbox_events o WHERE created_at < $1
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = o.id AND d.status = 'pending')`,
      before(keep.eventsDays * day),
    ],
    [
      'messages',
      'SELECT count(*)::int AS n FROM messages WHERE created_at < $1',
      before(keep.messagesDays * day),
    ],
    [
      'accounts deleted 30 days ago',
      'SELECT count(*)::int AS n FROM users WHERE deleted_at < $1',
      before(30 * day),
    ],
  ];
  const lines = ['| expired rows left | count |', '|---|---|'];
  let left = 0;
  for (const [label, sql, cutoff] of checks) {
    const [{ n }] = await db.query<{ n: number }>(sql, [cutoff]);
    left += n;
    lines.push(`| ${label} | ${n} |`);
  }
  if (left > 0) process.exitCode = 1;
  return lines;
}
