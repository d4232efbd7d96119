import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { housekeeping } from '../../src/workers/housekeeping.ts';
import { createTestApp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { twilioStatusCallback, writeConfig } from '../helpers/messaging.ts';
import { ADMIN_TOKEN, adminRequest } from '../helpers/oauth.ts';
import { VendorServer } from '../helpers/vendor-server.ts';
import * as vendors from '../helpers/vendors.ts';

// The economics of codes against a scripted run: codes sent through a local Twilio (one route first trying a
// gateway that is down, so its codes fall back), a receipt, codes entered, a send refused by a limit; the admin
// answer's figures per country, provider and channel are the run's, and stay so once the hours are rolled up
// and the rows they came from are gone.

const TW_TOKEN = 'twilio-token-for-economics';
const METRICS_TOKEN = 'metrics-token-for-economics-0123456789';

describe('the economics of codes', () => {
  const tw = new VendorServer(vendors.twilio('AC1', TW_TOKEN));
  let t: TestApp;
  let start: Date;
  before(async () => {
    const twUrl = await tw.start();
    const path = writeConfig({
      providers: {
        tw: {
          type: 'twilio',
          account_sid: 'AC1',
          auth_token: TW_TOKEN,
          from: '+15005550006',
          api_url: twUrl,
          price: { US: 0.0079, GB: 0.04 },
        },
        down: { type: 'http', url: 'http://127.0.0.1:1/sms' },
      },
      routes: [
        { countries: ['GB'], sms: ['down', 'tw'] },
        { countries: ['*'], sms: ['tw'] },
      ],
    });
    t = await createTestApp({
      env: { SMS_PROVIDER: '', MESSAGING_CONFIG: path, ADMIN_TOKEN, METRICS_TOKEN },
    });
    start = t.clock.now();
  });
  after(async () => {
    await t.close();
    await tw.close();
  });

  const send = (phone: string, ip = uniqueIp()) =>
    t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip });
  const enter = async (phone: string) => {
    const code = /\b(\d{6})\b/.exec(
      tw.requests.filter((r) => r.form.To === phone).at(-1)?.form.Body ?? '',
    )?.[1];
    const res = await t.request('POST', '/auth/otp/verify', { body: { phone, purpose: 'signup', code } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const delivered = async () => {
    const sid = (tw.lastAnswer as { sid: string }).sid;
    const res = await twilioStatusCallback(t, {
      provider: 'tw',
      authToken: TW_TOKEN,
      sid,
      status: 'delivered',
    });
    assert.equal(res.status, 200);
  };
  const report = async (query: string) => {
    const res = await adminRequest(t, 'GET', `/sms/economics?${query}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data;
  };
  const rowOf = (rows: Array<Record<string, unknown>>, country: string, provider: string, channel: string) =>
    rows.find((r) => r.country === country && r.provider === provider && r.channel === channel);

  test("a run's sends, receipts, entries and refusals, per country, provider and channel", async () => {
    const ip = uniqueIp();
    const a = uniquePhone();
    for (let i = 0; i < 3; i++) assert.equal((await send(a, ip)).status, 200);
    assert.equal((await send(a, ip)).status, 429, 'the fourth code to one number is refused by its limit');
    await enter(a);
    const b = uniquePhone();
    assert.equal((await send(b)).status, 200);
    await delivered();
    const gb = `+4474001${String(10000 + (process.pid % 80000)).slice(-5)}`;
    assert.equal((await send(gb)).status, 200);
    await enter(gb);

    const from = encodeURIComponent(new Date(start.getTime() - 3_600_000).toISOString());
    const { rows } = await report(`from=${from}&group_by=country,provider,channel`);
    const us = rowOf(rows, 'US', 'tw', 'sms');
    assert.deepEqual(
      { sent: us?.sent, delivered: us?.delivered, verified: us?.verified, fell_back: us?.fell_back },
      { sent: 4, delivered: 1, verified: 1, fell_back: 0 },
    );
    assert.equal(Number(us?.cost).toFixed(4), '0.0316');
    assert.equal(us?.conversion, 0.25);
    const refused = rowOf(rows, 'US', '', '');
    assert.equal(refused?.rate_limited, 1);
    assert.equal(refused?.requested, 1);
    const uk = rowOf(rows, 'GB', 'tw', 'sms');
    assert.deepEqual(
      { sent: uk?.sent, verified: uk?.verified, fell_back: uk?.fell_back, cost: uk?.cost },
      { sent: 1, verified: 1, fell_back: 1, cost: 0.04 },
    );
    const [total] = (await report(`from=${from}&group_by=`)).rows;
    assert.equal(total.requested, 6);
    assert.equal(total.sent, 5);

    const metrics = await t.app.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    const value = (series: string) => {
      const line = metrics.body.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    const usLabels = '{country="US",provider="tw",channel="sms"';
    assert.equal(value(`callsign_codes_sent_total${usLabels},fell_back="false"}`), 4);
    assert.equal(
      value(`callsign_codes_sent_total{country="GB",provider="tw",channel="sms",fell_back="true"}`),
      1,
    );
    assert.equal(value(`callsign_codes_cost_total${usLabels}}`)?.toFixed(4), '0.0316');
  });

  test('once rolled up, the figures outlive the rows they came from', async () => {
    const from = encodeURIComponent(new Date(start.getTime() - 3_600_000).toISOString());
    const before = await report(`from=${from}&group_by=day,country,provider,channel`);
    t.clock.advance(3600);
    await t.c.codeEconomics.rollUp(t.clock.now());
    t.clock.advance(3 * 86_400);
    const purged = await housekeeping(t.c.db).run(t.clock.now());
    assert.ok(purged.sms_country_minutes > 0 && purged.otps > 0, JSON.stringify(purged));
    const later = await report(`from=${from}&group_by=day,country,provider,channel`);
    assert.deepEqual(later.rows, before.rows);
  });

  test('a bad query is a clear error', async () => {
    for (const query of [
      'from=yesterday',
      'group_by=hour,day',
      'group_by=planet',
      'from=2026-01-01&to=2025-01-01',
    ])
      assert.equal((await adminRequest(t, 'GET', `/sms/economics?${query}`)).status, 400, query);
    assert.equal((await t.request('GET', '/admin/v1/sms/economics')).status, 401);
  });
});
