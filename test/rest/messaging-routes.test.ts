import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';
import { envRef, writeConfig } from '../helpers/messaging.ts';
import { type VendorRequest, VendorServer } from '../helpers/vendor-server.ts';
import * as vendors from '../helpers/vendors.ts';

// Codes by country and channel through MESSAGING_CONFIG: the first route that holds the number's country,
// the requested channel's providers in order, the fallback channel's after them, providers set aside after
// five failures in a row for 60 s, and INTERNAL_ERROR with no usable code only when everything failed.

let numbers = 0;
/** A mobile number of the country, in a block of 1,000 of its own. */
const mobile = (country: 'NG' | 'BR' | 'IN') => {
  const n = ++numbers * 1001;
  return { NG: `+234803${1_000_000 + n}`, BR: `+55119${10_000_000 + n}`, IN: `+9198${10_000_000 + n}` }[
    country
  ];
};

/** The code a vendor was asked to carry, read as the vendor reads the request. */
function codeIn(req: VendorRequest | undefined): string | undefined {
  if (!req) return undefined;
  const json = req.json as {
    sms?: string;
    template?: { components: Array<{ parameters: Array<{ text: string }> }> };
  };
  const text = req.form.Body ?? json?.sms ?? json?.template?.components[0].parameters[0].text ?? '';
  return /\b(\d{6})\b/.exec(text)?.[1];
}

describe('MESSAGING_CONFIG: routes, failover, fallback', () => {
  const tw = new VendorServer(vendors.twilio('AC1', 'twilio-token-0123'));
  const meta = new VendorServer(vendors.whatsappCloud('55', 'meta-token-0123'));
  const termii = new VendorServer(vendors.termii('termii-key-0123'));
  let t: TestApp;
  before(async () => {
    const [twUrl, metaUrl, termiiUrl] = await Promise.all([tw.start(), meta.start(), termii.start()]);
    const path = writeConfig({
      providers: {
        tw: {
          type: 'twilio',
          account_sid: 'AC1',
          auth_token: envRef('TW_TOKEN'),
          from: '+15005550006',
          whatsapp_content_sid: 'HX1',
          api_url: twUrl,
        },
        meta: {
          type: 'whatsapp_cloud',
          phone_number_id: '55',
          access_token: envRef('META_TOKEN'),
          template: 'login_code',
          api_url: metaUrl,
        },
        termii: { type: 'termii', api_key: envRef('TERMII_KEY'), from: 'Callsign', api_url: termiiUrl },
      },
      routes: [
        { countries: ['NG'], sms: ['termii', 'tw'] },
        { countries: ['BR'], whatsapp: ['meta'], sms: ['tw'] },
        { countries: ['*'], sms: ['tw'], whatsapp: ['meta'], voice: ['tw'] },
      ],
      fallback: { whatsapp: 'sms', voice: 'sms' },
    });
    t = await createTestApp({
      env: {
        SMS_PROVIDER: '',
        MESSAGING_CONFIG: path,
        TW_TOKEN: 'twilio-token-0123',
        META_TOKEN: 'meta-token-0123',
        TERMII_KEY: 'termii-key-0123',
        SMS_APP_HASH: 'FA+9qCX9VSu',
        // An Android app's own SMS Retriever hash, from its entry.
        ANDROID_APPS: `com.duka.app:${'AB:'.repeat(31)}AB:Xb3kP0q9Lmn`,
      },
    });
  });
  after(async () => {
    await t.close();
    await Promise.all([tw.close(), meta.close(), termii.close()]);
  });
  const send = (phone: string, channel?: string) =>
    t.request('POST', '/auth/otp/send', {
      body: { phone, purpose: 'signup', ...(channel ? { channel } : {}) },
      ip: uniqueIp(),
    });
  const verify = (phone: string, code: string | undefined) =>
    t.request('POST', '/auth/otp/verify', { body: { phone, code, purpose: 'signup' }, ip: uniqueIp() });

  test('the first route holding the country applies; the answer names the channel; the code works', async () => {
    const ng = mobile('NG');
    const sent = await send(ng);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.data.channel, 'sms');
    assert.equal((termii.requests.at(-1)?.json as { to: string }).to, ng.slice(1), 'Termii for Nigeria');
    assert.equal((await verify(ng, codeIn(termii.requests.at(-1)))).status, 200);
    const us = uniquePhone();
    await send(us);
    assert.equal(tw.requests.at(-1)?.form.To, us, 'Twilio for the rest of the world');
  });

  test('the SMS text ends with the WebOTP line, the app hash alone on the line before it', async () => {
    const us = uniquePhone();
    await send(us);
    const lines = (tw.requests.at(-1)?.form.Body ?? '').split('\n');
    const code = codeIn(tw.requests.at(-1));
    assert.deepEqual(lines.slice(-3), ['FA+9qCX9VSu', 'Xb3kP0q9Lmn', `@callsign.test #${code}`]);
  });

  test('WhatsApp where asked for; voice reads the code; each answers its channel', async () => {
    const br = mobile('BR');
    const sent = await send(br, 'whatsapp');
    assert.equal(sent.body.data.channel, 'whatsapp');
    assert.equal((meta.requests.at(-1)?.json as { to: string }).to, br.slice(1));
    assert.equal(
      (await verify(br, codeIn(meta.requests.at(-1)))).status,
      200,
      'the template carried the code',
    );
    const us = uniquePhone();
    const called = await send(us, 'voice');
    assert.equal(called.body.data.channel, 'voice');
    assert.equal(tw.requests.at(-1)?.path, '/2010-04-01/Accounts/AC1/Calls.json');
  });

  test('a channel with no route for the number falls back as configured', async () => {
    const br = mobile('BR');
    const sent = await send(br, 'voice'); // Brazil's route has no voice: voice falls back to SMS
    assert.equal(sent.status, 200);
    assert.equal(sent.body.data.channel, 'sms');
    assert.equal(tw.requests.at(-1)?.form.To, br);
  });

  test('a failing provider is followed by the next, with the same code; then the fallback channel', async () => {
    const ng = mobile('NG');
    termii.failWith = 500;
    try {
      const sent = await send(ng);
      assert.equal(sent.body.data.channel, 'sms');
      assert.equal(codeIn(termii.requests.at(-1)), codeIn(tw.requests.at(-1)), 'the same code, by Twilio');
      assert.equal(tw.requests.at(-1)?.form.To, ng);
    } finally {
      termii.failWith = 0;
    }
    const br = mobile('BR');
    meta.failWith = 503;
    try {
      const sent = await send(br, 'whatsapp');
      assert.equal(sent.body.data.channel, 'sms', 'WhatsApp failed: SMS carried it');
      assert.equal((await verify(br, codeIn(tw.requests.at(-1)))).status, 200);
    } finally {
      meta.failWith = 0;
    }
  });

  test('a message the vendor took is not sent again when the database then fails to record it', async () => {
    // The database goes away between the vendor's answer and the message's record, as in a failover.
    await t.c.db.exec(`
      CREATE FUNCTION refuse_message_record() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the database went away' USING ERRCODE = '08006'; END $$;
      CREATE TRIGGER refuse_message_record BEFORE INSERT ON messages
        FOR EACH ROW EXECUTE FUNCTION refuse_message_record();`);
    const [termiiBefore, twBefore] = [termii.requests.length, tw.requests.length];
    try {
      const sent = await send(mobile('NG'));
      assert.equal(sent.status, 503, JSON.stringify(sent.body));
      assert.equal(termii.requests.length, termiiBefore + 1, 'Termii carried it');
      assert.equal(tw.requests.length, twBefore, 'nobody carried it a second time');
    } finally {
      await t.c.db.exec(
        'DROP TRIGGER refuse_message_record ON messages; DROP FUNCTION refuse_message_record()',
      );
    }
  });

  test('a provider that failed 5 times in a row is skipped for 60 s, then tried again', async () => {
    await send(mobile('NG')); // a success clears the count of failures before
    termii.failWith = 500;
    try {
      const before = termii.requests.length;
      for (let i = 0; i < 5; i++) assert.equal((await send(mobile('NG'))).status, 200, `failed over ${i}`);
      assert.equal(termii.requests.length, before + 5);
      await send(mobile('NG'));
      assert.equal(termii.requests.length, before + 5, 'set aside');
      t.clock.advance(61);
      await send(mobile('NG'));
      assert.equal(termii.requests.length, before + 6, 'tried again after 60 s');
    } finally {
      termii.failWith = 0;
    }
    t.clock.advance(61);
    await send(mobile('NG'));
  });

  test("a vendor's throttling (429) is its own failure: five set it aside; a Retry-After sets it aside that long", async () => {
    await send(mobile('NG'));
    termii.failWith = 429;
    try {
      const before = termii.requests.length;
      for (let i = 0; i < 5; i++) assert.equal((await send(mobile('NG'))).status, 200, `failed over ${i}`);
      await send(mobile('NG'));
      assert.equal(termii.requests.length, before + 5, 'set aside after five, as a 5xx');
      t.clock.advance(61);
      termii.failHeaders = { 'retry-after': '120' };
      await send(mobile('NG'));
      assert.equal(termii.requests.length, before + 6);
      t.clock.advance(119);
      await send(mobile('NG'));
      assert.equal(termii.requests.length, before + 6, 'paused for the 120 s it asked, after one answer');
      t.clock.advance(2);
      termii.failWith = 0;
      await send(mobile('NG'));
      assert.equal(termii.requests.length, before + 7, 'asked again once the pause is over');
    } finally {
      termii.failWith = 0;
      termii.failHeaders = {};
    }
  });

  test('a vendor refusing one number (a 4xx) fails that message over and leaves the provider in use', async () => {
    await send(mobile('NG'));
    termii.failWith = 400; // e.g. a destination the account is not enabled for
    const before = termii.requests.length;
    try {
      for (let i = 0; i < 7; i++) assert.equal((await send(mobile('NG'))).status, 200, `failed over ${i}`);
      assert.equal(termii.requests.length, before + 7, 'asked every time: refusals do not set it aside');
    } finally {
      termii.failWith = 0;
    }
    const ng = mobile('NG');
    await send(ng);
    assert.equal(
      (termii.requests.at(-1)?.json as { to?: string }).to,
      ng.slice(1),
      'Termii carries the next',
    );
  });

  test('only when every provider failed: INTERNAL_ERROR, and the code it tried to send does not work', async () => {
    const ng = mobile('NG');
    termii.failWith = 500;
    tw.failWith = 500;
    try {
      const sent = await send(ng);
      assert.equal(sent.status, 500);
      assert.equal(sent.body.error.code, 'INTERNAL_ERROR');
    } finally {
      termii.failWith = 0;
      tw.failWith = 0;
    }
    const refused = await verify(ng, codeIn(tw.requests.at(-1)));
    assert.notEqual(refused.status, 200, 'no usable code was left');
    t.clock.advance(61);
  });

  test('an unknown channel is INVALID_REQUEST naming it; the 3/h per-phone limit counts every channel', async () => {
    const bad = await send(uniquePhone(), 'fax');
    assert.equal(bad.status, 400);
    assert.deepEqual([bad.body.error.code, bad.body.error.details.field], ['INVALID_REQUEST', 'channel']);
    const us = uniquePhone();
    for (const channel of ['sms', 'whatsapp', 'voice'])
      assert.equal((await send(us, channel)).status, 200, channel);
    assert.equal((await send(us, 'sms')).body.error?.code, 'RATE_LIMITED');
  });

  test('no secret of the configuration reaches the logs', () => {
    for (const secret of ['twilio-token-0123', 'meta-token-0123', 'termii-key-0123'])
      assert.ok(
        t.logs.every((line) => !line.includes(secret)),
        secret,
      );
  });
});

describe('a channel with no route and no fallback', () => {
  const tw = new VendorServer(vendors.twilio('AC1', 'twilio-token-0123'));
  let t: TestApp;
  before(async () => {
    const path = writeConfig({
      providers: {
        tw: {
          type: 'twilio',
          account_sid: 'AC1',
          auth_token: 'twilio-token-0123',
          from: '+15005550006',
          api_url: await tw.start(),
        },
      },
      routes: [{ countries: ['*'], sms: ['tw'] }],
    });
    t = await createTestApp({ env: { SMS_PROVIDER: '', MESSAGING_CONFIG: path } });
  });
  after(async () => {
    await t.close();
    await tw.close();
  });

  test('is refused before a code is made: INVALID_REQUEST on channel, nothing sent', async () => {
    const phone = uniquePhone();
    const before = tw.requests.length;
    const res = await t.request('POST', '/auth/otp/send', {
      body: { phone, purpose: 'signup', channel: 'whatsapp' },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.error.details, { field: 'channel', reason: 'no_route' });
    assert.equal(tw.requests.length, before);
  });
});

describe('SMS_PROVIDER alone, as before MESSAGING_CONFIG', () => {
  const tw = new VendorServer(vendors.twilio('AC9', 'k-token'));
  let t: TestApp;
  before(async () => {
    const url = await tw.start();
    t = await createTestApp({
      env: {
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC9',
        TWILIO_AUTH_TOKEN: 'k-token',
        TWILIO_FROM: '+15005550006',
        TWILIO_API_URL: url,
      },
    });
  });
  after(async () => {
    await t.close();
    await tw.close();
  });

  test('Twilio carries every code by SMS; WhatsApp and voice fall back to SMS, and the answer says so', async () => {
    const phone = uniquePhone();
    const res = await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.channel, 'sms');
    assert.equal(tw.requests.at(-1)?.form.To, phone);
    assert.match(tw.requests.at(-1)?.form.Body ?? '', /\b\d{6}\b/);
    const asked = await t.request('POST', '/auth/otp/send', {
      body: { phone: uniquePhone(), purpose: 'signup', channel: 'whatsapp' },
      ip: uniqueIp(),
    });
    assert.equal(asked.body.data.channel, 'sms');
    assert.equal(tw.requests.at(-1)?.path, '/2010-04-01/Accounts/AC9/Messages.json');
  });
});
