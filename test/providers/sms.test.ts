import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { ConsoleSms } from '../../src/providers/sms/console-sms.ts';
import { HttpSms } from '../../src/providers/sms/http-sms.ts';
import { SmsSendError } from '../../src/providers/sms/sms-provider.ts';
import { TwilioSms } from '../../src/providers/sms/twilio-sms.ts';
import { createTestApp, uniquePhone } from '../helpers/app.ts';

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real HTTP server on 127.0.0.1 standing in for a vendor: records requests, answers `status`. */
async function vendor(status: number) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{"sid":"SM1"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { seen, url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('SMS providers (D37)', () => {
  test('console prints the text on its own line', async () => {
    const lines: string[] = [];
    await new ConsoleSms((l) => lines.push(l), false).send('+14155550100', 'Your code is 123456');
    assert.deepEqual(lines, ['[sms:console] to +14155550100: Your code is 123456\n']);
  });

  test('on a terminal, console sets the text apart from the log lines with blank lines and a highlight', async () => {
    const lines: string[] = [];
    await new ConsoleSms((l) => lines.push(l), true).send('+14155550100', 'Your code is 123456');
    assert.deepEqual(lines, [
      '\n\u001b[1;33;40m [sms:console] to +14155550100: Your code is 123456 \u001b[0m\n\n',
    ]);
  });

  test('http POSTs {to, message} as JSON; a non-2xx answer is a failed send', async () => {
    const ok = await vendor(200);
    const failing = await vendor(503);
    try {
      await new HttpSms(`${ok.url}/send`).send('+14155550100', 'hello');
      assert.equal(ok.seen[0].url, '/send');
      assert.equal(ok.seen[0].headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(ok.seen[0].body), { to: '+14155550100', message: 'hello' });
      await assert.rejects(new HttpSms(failing.url).send('+14155550100', 'hello'), SmsSendError);
      await assert.rejects(new HttpSms('http://127.0.0.1:1/').send('+14155550100', 'hello'), SmsSendError);
    } finally {
      await ok.close();
      await failing.close();
    }
  });

  test('twilio calls the Messages API with Basic auth and To/From/Body form fields', async () => {
    const api = await vendor(201);
    try {
      await new TwilioSms({
        accountSid: 'AC123',
        authToken: 'tok',
        from: '+15005550006',
        apiUrl: api.url,
      }).send('+14155550100', 'hi');
      const req = api.seen[0];
      assert.equal(req.url, '/2010-04-01/Accounts/AC123/Messages.json');
      assert.equal(req.headers.authorization, `Basic ${Buffer.from('AC123:tok').toString('base64')}`);
      assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
      const form = new URLSearchParams(req.body);
      assert.equal(form.get('To'), '+14155550100');
      assert.equal(form.get('From'), '+15005550006');
      assert.equal(form.get('Body'), 'hi');
      await new TwilioSms({ accountSid: 'AC123', authToken: 'tok', from: 'MG999', apiUrl: api.url }).send(
        '+14155550100',
        'hi',
      );
      assert.equal(new URLSearchParams(api.seen[1].body).get('MessagingServiceSid'), 'MG999');
    } finally {
      await api.close();
    }
  });

  test('twilio configured through the environment delivers the OTP of /auth/otp/send', async () => {
    const api = await vendor(201);
    const t = await createTestApp({
      env: {
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC9',
        TWILIO_AUTH_TOKEN: 'k',
        TWILIO_FROM: '+15005550006',
        TWILIO_API_URL: api.url,
      },
    });
    try {
      const phone = uniquePhone();
      const res = await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' } });
      assert.equal(res.status, 200);
      const form = new URLSearchParams(api.seen[0].body);
      assert.equal(form.get('To'), phone);
      assert.match(form.get('Body') ?? '', /\b\d{6}\b/);
    } finally {
      await t.close();
      await api.close();
    }
  });
});
