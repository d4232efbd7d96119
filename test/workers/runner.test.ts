import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_RETENTION } from '../../src/config/retention-settings.ts';
import { addSeconds } from '../../src/providers/clock.ts';
import { jobsRepo } from '../../src/storage/repositories/jobs.ts';
import { phoneRiskRepo } from '../../src/storage/repositories/phone-risk.ts';
import { housekeeping } from '../../src/workers/housekeeping.ts';
import { createTestApp, events, signUp } from '../helpers/app.ts';
import { housekeepingDay } from '../helpers/housekeeping.ts';
import {
  ADMIN_TOKEN,
  authorizationParams,
  authorizeWithPin,
  pkce,
  registerClient,
} from '../helpers/oauth.ts';
import { WebhookReceiver } from '../helpers/webhook-receiver.ts';

test('two instances ticking at once run each due job once; the next run waits its interval', async () => {
  const a = await createTestApp();
  const b = await createTestApp({ shareWith: a });
  try {
    const [ranA, ranB] = await Promise.all([a.c.worker.tick(), b.c.worker.tick()]);
    assert.deepEqual([...ranA, ...ranB].sort(), [
      'code-economics-rollup',
      'housekeeping',
      'purge-deleted-accounts',
    ]);
    assert.deepEqual([...(await a.c.worker.tick()), ...(await b.c.worker.tick())], [], 'not due again yet');
    a.clock.advance(3600);
    const again = await Promise.all([a.c.worker.tick(), b.c.worker.tick()]);
    assert.equal(again.flat().length, 3);
    const runs = await a.c.db.query<{ runs: number }>('SELECT runs FROM jobs ORDER BY name');
    assert.deepEqual(
      runs.map((r) => Number(r.runs)),
      [2, 2, 2],
    );
  } finally {
    await b.close();
    await a.close();
  }
});

test('race: 10 claims of one due run at once: exactly one wins', async () => {
  const t = await createTestApp();
  try {
    const now = t.clock.now();
    const wins = await Promise.all(
      Array.from({ length: 10 }, () => jobsRepo.claim(t.c.db, 'x', now, new Date(now.getTime() + 60_000))),
    );
    assert.equal(wins.filter(Boolean).length, 1);
  } finally {
    await t.close();
  }
});

test('housekeeping removes codes and tokens a day past their end, and stale rate windows', async () => {
  const t = await createTestApp();
  try {
    await t.request('POST', '/auth/otp/send', { body: { phone: '+16502345678', purpose: 'signup' } });
    await t.request('POST', '/auth/passkey/options', { body: {} });
    await t.c.worker.tick();
    // Each run's log line says what it removed and how long it took.
    const line = t.logs
      .flatMap((chunk) => chunk.split('\n'))
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'job finished' && l.job === 'housekeeping');
    assert.equal(typeof line?.ms, 'number', JSON.stringify(line));
    assert.equal(line.otps, 0);
    assert.equal(
      (await t.c.db.query('SELECT 1 FROM webauthn_challenges')).length,
      1,
      'a live challenge stays',
    );
    assert.equal((await t.c.db.query('SELECT 1 FROM otps')).length, 1, 'a live code stays');
    t.clock.advance(2 * 86400);
    // The job answers what it removed (the runner logs it), counted by the server.
    const counts = await housekeeping(t.c.db).run(t.clock.now());
    assert.equal(counts.otps, 1, JSON.stringify(counts));
    assert.equal((await t.c.db.query('SELECT 1 FROM otps')).length, 0);
    assert.equal((await t.c.db.query('SELECT 1 FROM webauthn_challenges')).length, 0);
    assert.equal((await t.c.db.query('SELECT 1 FROM rate_counters')).length, 0);
  } finally {
    await t.close();
  }
});

test('housekeeping removes ended sessions, spent authorization codes and SSO sessions a day past their end', async () => {
  const t = await createTestApp({ env: { ADMIN_TOKEN } });
  try {
    const user = await signUp(t); // a live session, refreshable for 30 days (D16)
    const leaver = await signUp(t);
    await t.request('POST', '/auth/logout', {
      token: leaver.access_token,
      body: { refresh_token: leaver.refresh_token },
    });
    const client = await registerClient(t, { token_endpoint_auth_method: 'none' });
    // A code (60 s, D24) and the SSO cookie's session (7 days, D25), never exchanged or used again.
    await authorizeWithPin(t, authorizationParams(client.client_id, pkce().challenge), user);
    const count = async (table: string) => (await t.c.db.query(`SELECT 1 FROM ${table}`)).length;

    const soon = await housekeeping(t.c.db).run(addSeconds(t.clock.now(), 3600));
    assert.deepEqual(
      [soon.sessions, soon.authorization_codes, soon.sso_sessions],
      [0, 0, 0],
      'not a day yet',
    );
    const later = await housekeeping(t.c.db).run(addSeconds(t.clock.now(), 2 * 86400));
    assert.deepEqual(
      [later.sessions, later.authorization_codes, later.sso_sessions],
      [1, 1, 0],
      'the revoked session and the code',
    );
    assert.equal(await count('sessions'), 1, 'the live one stays');
    const monthHour = await housekeeping(t.c.db).run(addSeconds(t.clock.now(), 32 * 86400));
    const month = await housekeepingDay(t.c.db, addSeconds(t.clock.now(), 32 * 86400 + 3600));
    assert.deepEqual(
      [monthHour.sessions + month.sessions, monthHour.sso_sessions + month.sso_sessions],
      [1, 1],
      'run out (P59), within a day of hourly runs, and the SSO session',
    );
    assert.deepEqual([await count('sessions'), await count('sso_sessions')], [0, 0]);
  } finally {
    await t.close();
  }
});

test('housekeeping drops SIM check answers after 90 days', async () => {
  const t = await createTestApp();
  try {
    const s = await signUp(t);
    const check = (at: Date) => ({
      ...{ id: t.c.random.uuid(), user_id: s.user.id, phone: s.phone, provider: 'http' },
      ...{
        check_kind: 'sim_swap' as const,
        outcome: 'not_swapped',
        detail: null,
        last_swap_at: null,
        checked_at: at,
      },
    });
    await phoneRiskRepo.record(t.c.db, check(t.clock.now()));
    await phoneRiskRepo.record(t.c.db, check(addSeconds(t.clock.now(), 2 * 86400)));
    const counts = await housekeeping(t.c.db).run(
      addSeconds(t.clock.now(), (DEFAULT_RETENTION.phoneChecksDays + 1) * 86400),
    );
    assert.equal(counts.phone_checks, 1);
    assert.equal((await t.c.phoneRisk.checksOf(s.user.id)).checks.length, 1);
  } finally {
    await t.close();
  }
});

test('housekeeping drops events after 30 days, but not one a delivery still waits for', async () => {
  const t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  const receiver = new WebhookReceiver();
  try {
    receiver.respond = () => 500;
    await t.c.webhooks.create({ url: await receiver.start(), events: ['user.created'] });
    await signUp(t); // user.created (a delivery that keeps failing) and session.created (no delivery)
    await t.c.deliveries.deliverDue();
    t.clock.advance(DEFAULT_RETENTION.eventsDays * 86400 - 3600);
    await t.c.worker.tick();
    assert.equal((await events(t)).length, 2, 'kept for 30 days');
    t.clock.advance(2 * 3600);
    await t.c.worker.tick();
    assert.deepEqual(
      (await events(t)).map((e) => e.type),
      ['user.created'],
      'the pending delivery keeps its event',
    );
    await t.c.db.query(`UPDATE webhook_deliveries SET status = 'failed'`);
    t.clock.advance(3600);
    await t.c.worker.tick();
    assert.equal((await events(t)).length, 0);
    assert.equal((await t.c.db.query('SELECT 1 FROM webhook_deliveries')).length, 0, 'the log goes with it');
  } finally {
    await receiver.close();
    await t.close();
  }
});
