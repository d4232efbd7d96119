import { randomInt } from 'node:crypto';
import { DEFAULT_RETENTION } from '../src/config/retention-settings.ts';
import type { Database } from '../src/storage/db.ts';

// npm run soak: a mixed load (sign-ups, sign-ins, refreshes, OAuth code exchanges and refreshes, logouts,
// account deletions, webhooks) in one process on PostgreSQL (+ Redis), the injected clock moved an hour after
// each round and the hourly jobs run, for BENCH_SOAK_MINUTES (60) of real time; then it checks that every
// expired row is gone and prints the rows and bytes per account each table holds.
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 60);
const DATABASE_URL = process.env.BENCH_DATABASE_URL;
if (!DATABASE_URL) throw new Error('npm run soak needs BENCH_DATABASE_URL (and BENCH_REDIS_URL)');
// The test helpers read these when loaded: the soak's app gets a schema of its own on this server.
process.env.TEST_DATABASE_URL = DATABASE_URL;
if (process.env.BENCH_REDIS_URL) process.env.TEST_REDIS_URL = process.env.BENCH_REDIS_URL;
const { createTestApp, signUp } = await import('../test/helpers/app.ts');
const oauth = await import('../test/helpers/oauth.ts');
const { WebhookReceiver } = await import('../test/helpers/webhook-receiver.ts');
const { soakChecks, tableRows, tableBytes } = await import('./soak-checks.ts');

const limits =
  'otp_send_phone,otp_send_address,otp_send_prefix,signin_phone,signin_address,rest_user,rest_address,oauth_token_client,oauth_authorize_address'
    .split(',')
    .map((n) => `${n}=1000000000/60`)
    .join(',');
const t = await createTestApp({
  env: {
    ADMIN_TOKEN: oauth.ADMIN_TOKEN,
    RATE_LIMITS: limits,
    SMS_BREAKER: 'min_sends=1000000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'warn',
  },
});
const receiver = new WebhookReceiver();
await t.c.webhooks.create({ url: await receiver.start() });
const client = await oauth.registerClient(t, { token_endpoint_auth_method: 'none' });
const people: Array<{ phone: string; pin: string; access: string; refresh: string; oauthRefresh?: string }> =
  [];
const recent = () => people[people.length - 1 - randomInt(Math.min(people.length, 300))];
const tally = { requests: 0, failed: 0 };
const count = (ok: boolean) => {
  tally.requests++;
  if (!ok) tally.failed++;
};

/** One virtual hour of use. */
async function round(hour: number) {
  for (let i = 0; i < 3; i++) {
    const s = await signUp(t);
    people.push({ phone: s.phone, pin: s.pin, access: s.access_token, refresh: s.refresh_token });
    count(true);
  }
  for (let i = 0; i < 3; i++) {
    const p = recent();
    const r = await t.request('POST', '/auth/signin', { body: { phone: p.phone, pin: p.pin } });
    count(r.status === 200);
    if (r.status === 200)
      Object.assign(p, { access: r.body.data.access_token, refresh: r.body.data.refresh_token });
  }
  for (let i = 0; i < 10; i++) {
    const p = recent();
    const r = await t.request('POST', '/auth/refresh', { body: { refresh_token: p.refresh } });
    count(r.status === 200 || r.status === 401);
    if (r.status === 200)
      Object.assign(p, { access: r.body.data.access_token, refresh: r.body.data.refresh_token });
  }
  for (let i = 0; i < 2; i++) {
    const p = recent();
    const { verifier, challenge } = oauth.pkce();
    const back = await oauth.authorizeWithPin(t, oauth.authorizationParams(client.client_id, challenge), p);
    const code = back.searchParams.get('code');
    const r = code ? await oauth.exchangeCode(t, client.client_id, code, verifier) : undefined;
    count(r?.status === 200);
    if (r?.status === 200) p.oauthRefresh = r.body.refresh_token;
    const q = recent();
    if (q.oauthRefresh) {
      const again = await oauth.refreshGrant(t, client.client_id, q.oauthRefresh);
      count(again.status === 200 || again.status === 400);
      if (again.status === 200) q.oauthRefresh = again.body.refresh_token;
    }
  }
  const leaving = recent();
  count(
    (
      await t.request('POST', '/auth/logout', {
        token: leaving.access,
        body: { refresh_token: leaving.refresh },
      })
    ).status < 500,
  );
  if (hour % 4 === 0) {
    const gone = people.splice(randomInt(people.length), 1)[0];
    const r = await t.request('DELETE', '/users/me', {
      token: gone.access,
      body: { pin: gone.pin, confirmation: 'DELETE MY ACCOUNT' },
    });
    count(r.status === 200 || r.status === 401);
  }
  await t.c.deliveries.deliverDue();
  t.clock.advance(3600);
  await t.c.worker.tick();
}

const db: Database = t.c.db;
const started = performance.now();
const daily: string[] = [];
let hour = 0;
try {
  while (performance.now() - started < MINUTES * 60_000) {
    await round(hour++);
    if (hour % (24 * 30) === 0) {
      const rows = await tableRows(db);
      daily.push(
        `day ${hour / 24}: ${Object.entries(rows)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
      process.stderr.write(`${daily.at(-1)}\n`);
    }
  }
  const checks = await soakChecks(db, t.clock.now(), DEFAULT_RETENTION);
  const bytes = await tableBytes(db);
  process.stdout.write(
    [
      `\nSoak: ${MINUTES} min of real time, ${hour} virtual hours (${(hour / 24).toFixed(0)} days), ${tally.requests} requests (${tally.failed} failed)`,
      '',
      ...daily,
      '',
      ...checks,
      '',
      ...bytes,
      '',
    ].join('\n'),
  );
} finally {
  await receiver.close();
  await t.close();
}
