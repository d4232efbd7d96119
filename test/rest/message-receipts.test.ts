import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_RETENTION } from '../../src/config/retention-settings.ts';
import { addSeconds } from '../../src/providers/clock.ts';
import { messagesRepo } from '../../src/storage/repositories/messages.ts';
import { housekeeping } from '../../src/workers/housekeeping.ts';

const MESSAGE_RETENTION_SECONDS = DEFAULT_RETENTION.messagesDays * 86400;

import { createTestApp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { twilioStatusCallback, writeConfig } from '../helpers/messaging.ts';
import { type VendorRequest, VendorServer } from '../helpers/vendor-server.ts';
import * as vendors from '../helpers/vendors.ts';

// Delivery receipts at /hooks/messages/:provider: each vendor's signature checked as it signs, the message's
// state recorded, and a code reported failed re-sent once, while it lives, by the next provider.

const TW_TOKEN = 'twilio-token-for-receipts';
const META_SECRET = 'meta-app-secret-for-receipts';
const VONAGE_SIG = 'vonage-signature-secret';
const RECEIPTS = 'http://callsign.test/hooks/messages';
const METRICS_TOKEN = 'metrics-token-for-receipts-0123456789';

/** The Twilio provider of MESSAGING_CONFIG, at a local Twilio. */
const twilioAt = (apiUrl: string) => ({
  type: 'twilio',
  account_sid: 'AC1',
  auth_token: TW_TOKEN,
  from: '+15005550006',
  api_url: apiUrl,
});

describe('delivery receipts', () => {
  const tw = new VendorServer(vendors.twilio('AC1', TW_TOKEN));
  const meta = new VendorServer(vendors.whatsappCloud('55', 'meta-token'));
  const vg = new VendorServer(vendors.vonage('vk', 'vs'));
  let t: TestApp;
  before(async () => {
    const [twUrl, metaUrl, vgUrl] = await Promise.all([tw.start(), meta.start(), vg.start()]);
    const path = writeConfig({
      providers: {
        tw: { ...twilioAt(twUrl), price: { US: 0.0079 } },
        meta: {
          type: 'whatsapp_cloud',
          phone_number_id: '55',
          access_token: 'meta-token',
          template: 'login_code',
          app_secret: META_SECRET,
          verify_token: 'verify-me',
          api_url: metaUrl,
        },
        vg: {
          type: 'vonage',
          api_key: 'vk',
          api_secret: 'vs',
          from: 'Callsign',
          signature_secret: VONAGE_SIG,
          signature_method: 'sha256',
          api_url: vgUrl,
        },
        gw: { type: 'http', url: `${twUrl}/gateway` },
      },
      routes: [{ countries: ['*'], sms: ['tw', 'vg'], whatsapp: ['meta'] }],
      fallback: { whatsapp: 'sms' },
    });
    t = await createTestApp({ env: { SMS_PROVIDER: '', MESSAGING_CONFIG: path, METRICS_TOKEN } });
  });
  after(async () => {
    await t.close();
    await Promise.all([tw.close(), meta.close(), vg.close()]);
  });

  const send = async (phone: string, channel = 'sms') => {
    const res = await t.request('POST', '/auth/otp/send', {
      body: { phone, purpose: 'signup', channel },
      ip: uniqueIp(),
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  };
  const codeOf = (req: VendorRequest | undefined) =>
    /\b(\d{6})\b/.exec(req?.form.Body ?? req?.form.text ?? '')?.[1];
  /** Twilio's callback for its newest message, signed as Twilio signs (or with the signature given). */
  const twilioReceipt = (status: string, signature?: string) => {
    const sid = (tw.lastAnswer as { sid: string }).sid;
    const fields = { MessageSid: sid, MessageStatus: status, AccountSid: 'AC1' };
    return t.request('POST', '/hooks/messages/tw', {
      body: new URLSearchParams(fields).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature ?? vendors.twilioSignature(TW_TOKEN, `${RECEIPTS}/tw`, fields),
      },
    });
  };
  const recordOf = async (provider: string, id: string) => messagesRepo.byVendorId(t.c.db, provider, id);
  /** The service's time as a vendor writes it in a callback: Unix seconds. */
  const unixNow = (secondsAgo = 0) => String(Math.floor(t.clock.now().getTime() / 1000) - secondsAgo);
  /** Vonage's signed receipt for its newest message. */
  const vonageReceipt = (status: string, timestamp: string, price?: string) => {
    const id = (vg.lastAnswer as { messages: Array<{ 'message-id': string }> }).messages[0]['message-id'];
    const fields = { messageId: id, status, msisdn: '1', timestamp, ...(price ? { price } : {}) };
    const dlr = vendors.vonageSigned(VONAGE_SIG, fields);
    return t.request('POST', '/hooks/messages/vg', {
      body: new URLSearchParams(dlr).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  };

  test('each message names where its receipts go; a signed receipt is recorded', async () => {
    await send(uniquePhone());
    assert.equal(tw.requests.at(-1)?.form.StatusCallback, `${RECEIPTS}/tw`);
    const sid = (tw.lastAnswer as { sid: string }).sid;
    assert.equal((await twilioReceipt('sent')).status, 200);
    assert.equal((await twilioReceipt('delivered')).status, 200);
    const record = await recordOf('tw', sid);
    assert.equal(record?.status, 'delivered');
    assert.deepEqual(
      record?.history.map((h) => h.status),
      ['queued', 'sent', 'delivered'],
    );
    assert.ok(record?.delivered_at);
    assert.equal(
      Number(record?.price),
      0.0079,
      "the price the provider's configuration gives for the country",
    );
  });

  test('unsigned or wrongly signed callbacks are refused with 401 and change nothing', async () => {
    await send(uniquePhone());
    const sid = (tw.lastAnswer as { sid: string }).sid;
    const wrong = await twilioReceipt(
      'failed',
      vendors.twilioSignature('not-the-token', `${RECEIPTS}/tw`, {}),
    );
    assert.equal(wrong.status, 401);
    const unsigned = await t.request('POST', '/hooks/messages/tw', {
      body: `MessageSid=${sid}&MessageStatus=failed`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(unsigned.status, 401);
    assert.equal((await recordOf('tw', sid))?.status, 'queued');
    assert.equal(vg.requests.length, 0, 'no re-send');
    assert.equal(
      (await t.request('POST', '/hooks/messages/gw', { body: {} })).status,
      404,
      'a provider with no receipts',
    );
  });

  test('a failed receipt re-sends the same code once by the next provider; the code still works', async () => {
    const phone = uniquePhone();
    await send(phone);
    const code = codeOf(tw.requests.at(-1));
    assert.equal((await twilioReceipt('undelivered')).status, 200);
    assert.equal(vg.requests.length, 1, 're-sent by Vonage');
    assert.equal(codeOf(vg.requests.at(-1)), code, 'the same code');
    await twilioReceipt('failed');
    assert.equal(vg.requests.length, 1, 'only once');
    // The re-send's own failure is recorded, and sends nothing more.
    const vonageId = (vg.lastAnswer as { messages: Array<{ 'message-id': string }> }).messages[0][
      'message-id'
    ];
    const dlr = vendors.vonageSigned(VONAGE_SIG, {
      messageId: vonageId,
      status: 'failed',
      msisdn: phone.slice(1),
      timestamp: unixNow(),
    });
    const res = await t.request('POST', '/hooks/messages/vg', {
      body: new URLSearchParams(dlr).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.status, 200);
    assert.equal((await recordOf('vg', vonageId))?.status, 'failed');
    assert.equal(tw.requests.filter((r) => r.form.To === phone).length, 1, 'nothing more was sent');
    const verified = await t.request('POST', '/auth/otp/verify', {
      body: { phone, code, purpose: 'signup' },
    });
    assert.equal(verified.status, 200, 'the code one message carried works');
  });

  test('no re-send once the code is used or expired', async () => {
    const phone = uniquePhone();
    await send(phone);
    await t.request('POST', '/auth/otp/verify', {
      body: { phone, code: codeOf(tw.requests.at(-1)), purpose: 'signup' },
    });
    const before = vg.requests.length;
    await twilioReceipt('failed');
    assert.equal(vg.requests.length, before, 'used');
    await send(uniquePhone());
    t.clock.advance(301);
    await twilioReceipt('failed');
    assert.equal(vg.requests.length, before, 'expired');
  });

  test('Meta: the verification GET answers the challenge for the right token; statuses signed with the app secret', async () => {
    const ok = await t.request(
      'GET',
      '/hooks/messages/meta?hub.mode=subscribe&hub.verify_token=verify-me&hub.challenge=1158201444',
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.body, 1158201444);
    const wrong = await t.request(
      'GET',
      '/hooks/messages/meta?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1',
    );
    assert.equal(wrong.status, 401);
    await send(uniquePhone(), 'whatsapp');
    const wamid = (meta.lastAnswer as { messages: Array<{ id: string }> }).messages[0].id;
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '1',
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                statuses: [{ id: wamid, status: 'read', timestamp: unixNow(), recipient_id: '1' }],
              },
            },
          ],
        },
      ],
    });
    const bad = await t.request('POST', '/hooks/messages/meta', {
      body,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': vendors.metaSignature('wrong', body),
      },
    });
    assert.equal(bad.status, 401);
    const res = await t.request('POST', '/hooks/messages/meta', {
      body,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': vendors.metaSignature(META_SECRET, body),
      },
    });
    assert.equal(res.status, 200);
    assert.equal((await recordOf('meta', wamid))?.status, 'read');
  });

  test('a receipt dated more than a day ago is answered and ignored; one applied already is not recorded twice', async () => {
    const phone = uniquePhone();
    await send(phone);
    const sid = (tw.lastAnswer as { sid: string }).sid;
    assert.equal((await twilioReceipt('sent')).status, 200);
    assert.equal((await twilioReceipt('sent')).status, 200, 'a vendor’s retry');
    assert.equal((await twilioReceipt('undelivered')).status, 200);
    assert.equal((await twilioReceipt('undelivered')).status, 200, 'replayed');
    assert.deepEqual(
      (await recordOf('tw', sid))?.history.map((h) => h.status),
      ['queued', 'sent', 'undelivered'],
    );
    // The failure re-sent the code once by Vonage; its receipts are dated.
    const vonageId = (vg.lastAnswer as { messages: Array<{ 'message-id': string }> }).messages[0][
      'message-id'
    ];
    assert.equal((await vonageReceipt('delivered', unixNow(25 * 3600))).status, 200, 'answered');
    assert.equal((await recordOf('vg', vonageId))?.status, 'queued', 'but a day-old receipt changes nothing');
    assert.equal((await vonageReceipt('delivered', unixNow(60))).status, 200);
    assert.equal((await recordOf('vg', vonageId))?.status, 'delivered');
  });

  test('what the vendor says a message cost is its price: its answer first, then its receipt', async () => {
    await send(uniquePhone());
    const sid = (tw.lastAnswer as { sid: string }).sid;
    assert.equal((await recordOf('tw', sid))?.price, '0.0079', 'Twilio answered no price: the price table’s');
    assert.equal((await twilioReceipt('undelivered')).status, 200);
    const vonageId = (vg.lastAnswer as { messages: Array<{ 'message-id': string }> }).messages[0][
      'message-id'
    ];
    assert.equal(Number((await recordOf('vg', vonageId))?.price), 0.03, 'Vonage’s answer says 0.03');
    assert.equal((await vonageReceipt('delivered', unixNow(5), '0.03330000')).status, 200);
    assert.equal(Number((await recordOf('vg', vonageId))?.price), 0.0333, 'its receipt says what it charged');
  });

  test('a sealed code goes once it expires; a message goes after 30 days', async () => {
    await send(uniquePhone());
    const sid = (tw.lastAnswer as { sid: string }).sid;
    const sealed = async () =>
      (
        await t.c.db.query<{ sealed: boolean }>(
          'SELECT sealed_code IS NOT NULL AS sealed FROM messages WHERE provider_message_id = $1',
          [sid],
        )
      )[0]?.sealed;
    assert.equal(await sealed(), true, 'kept while the code may be re-sent');
    await housekeeping(t.c.db).run(addSeconds(t.clock.now(), 301));
    assert.equal(await sealed(), false, 'gone once the code expired');
    await housekeeping(t.c.db).run(addSeconds(t.clock.now(), MESSAGE_RETENTION_SECONDS - 60));
    assert.ok(await recordOf('tw', sid), 'kept 30 days');
    await housekeeping(t.c.db).run(addSeconds(t.clock.now(), MESSAGE_RETENTION_SECONDS + 60));
    assert.equal(await recordOf('tw', sid), undefined);
  });
});

describe('a failed code’s re-send passes the SMS defence like a first send', () => {
  const ADMIN = 'admin-token-for-resend-defence-0123456789';
  const tw = new VendorServer(vendors.twilio('AC1', TW_TOKEN));
  const vg = new VendorServer(vendors.vonage('vk', 'vs'));
  let t: TestApp;
  before(async () => {
    const [twUrl, vgUrl] = await Promise.all([tw.start(), vg.start()]);
    const path = writeConfig({
      providers: {
        tw: twilioAt(twUrl),
        vg: { type: 'vonage', api_key: 'vk', api_secret: 'vs', from: 'Callsign', api_url: vgUrl },
      },
      routes: [{ countries: ['*'], sms: ['tw', 'vg'] }],
    });
    t = await createTestApp({
      env: { SMS_PROVIDER: '', MESSAGING_CONFIG: path, SMS_DAILY_LIMIT: '3', ADMIN_TOKEN: ADMIN },
    });
  });
  after(async () => {
    await t.close();
    await Promise.all([tw.close(), vg.close()]);
  });

  const send = (phone: string) =>
    t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' }, ip: uniqueIp() });
  /** Twilio reports its newest message failed; answers that message's record. */
  const failed = async () => {
    const sid = (tw.lastAnswer as { sid: string }).sid;
    const res = await twilioStatusCallback(t, {
      provider: 'tw',
      authToken: TW_TOKEN,
      sid,
      status: 'undelivered',
    });
    assert.equal(res.status, 200);
    return (
      await t.request('GET', `/admin/v1/messages/${(await messagesRepo.byVendorId(t.c.db, 'tw', sid))?.id}`, {
        token: ADMIN,
      })
    ).body;
  };
  const usSent = async () =>
    (await t.request('GET', '/admin/v1/sms/countries', { token: ADMIN })).body.data.find(
      (c: { country: string }) => c.country === 'US',
    )?.last_hour.sent;

  test('a re-send spends the day’s budget and counts for the breaker; past the budget it is skipped', async () => {
    assert.equal((await send(uniquePhone())).status, 200, 'the budget’s first message');
    const first = await failed();
    assert.equal(vg.requests.length, 1, 're-sent: the budget’s second message');
    assert.equal(first.resend_skipped, null);
    assert.equal(await usSent(), 2, 'the re-send counts as sent for the country');
    assert.equal((await send(uniquePhone())).status, 200, 'the budget’s third message');
    const second = await failed();
    assert.equal(vg.requests.length, 1, 'the budget is spent: no re-send');
    assert.equal(second.resend_skipped, 'daily_limit');
    assert.equal(second.resent, true, 'claimed: never tried again');
    assert.equal(await usSent(), 3);
    const over = await send(uniquePhone());
    assert.equal(over.status, 429);
    assert.equal(over.body.error.details.scope, 'daily_limit');
  });

  test('no re-send to a country whose breaker is open', async () => {
    t.clock.advance(86_400); // a new day's budget
    assert.equal((await send(uniquePhone())).status, 200);
    const held = await t.request('POST', '/admin/v1/sms/countries/us/breaker', {
      token: ADMIN,
      body: { state: 'open' },
    });
    assert.equal(held.status, 200);
    const before = vg.requests.length;
    const record = await failed();
    assert.equal(vg.requests.length, before, 'not re-sent');
    assert.equal(record.resend_skipped, 'country_breaker');
  });
});

describe('a failed code with no provider left to re-send it', () => {
  const ADMIN = 'admin-token-for-resend-no-route-0123456789';
  const tw = new VendorServer(vendors.twilio('AC1', TW_TOKEN));
  let t: TestApp;
  before(async () => {
    const path = writeConfig({
      providers: { tw: twilioAt(await tw.start()) },
      routes: [{ countries: ['*'], sms: ['tw'] }],
    });
    t = await createTestApp({
      env: { SMS_PROVIDER: '', MESSAGING_CONFIG: path, SMS_DAILY_LIMIT: '2', ADMIN_TOKEN: ADMIN },
    });
  });
  after(async () => {
    await t.close();
    await tw.close();
  });

  test('is skipped as no_route, and spends none of the day’s budget', async () => {
    const send = () =>
      t.request('POST', '/auth/otp/send', {
        body: { phone: uniquePhone(), purpose: 'signup' },
        ip: uniqueIp(),
      });
    assert.equal((await send()).status, 200, 'the budget’s first message');
    const sid = (tw.lastAnswer as { sid: string }).sid;
    const fields = { MessageSid: sid, MessageStatus: 'failed', AccountSid: 'AC1' };
    const hook = await t.request('POST', '/hooks/messages/tw', {
      body: new URLSearchParams(fields).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': vendors.twilioSignature(TW_TOKEN, `${RECEIPTS}/tw`, fields),
      },
    });
    assert.equal(hook.status, 200);
    const id = (await messagesRepo.byVendorId(t.c.db, 'tw', sid))?.id;
    const record = (await t.request('GET', `/admin/v1/messages/${id}`, { token: ADMIN })).body;
    assert.equal(record.resend_skipped, 'no_route');
    assert.equal(tw.requests.length, 1, 'nothing re-sent');
    assert.equal((await send()).status, 200, 'the budget’s second message: the re-send spent none');
    assert.equal((await send()).status, 429);
  });
});
