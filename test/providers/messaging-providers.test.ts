import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ConsoleMessages } from '../../src/providers/messaging/console.ts';
import { HttpGateway } from '../../src/providers/messaging/http-gateway.ts';
import { Msg91 } from '../../src/providers/messaging/msg91.ts';
import { type OutgoingMessage, ProviderError, retryAfterOf } from '../../src/providers/messaging/provider.ts';
import { TermiiSms } from '../../src/providers/messaging/termii.ts';
import { TwilioMessages } from '../../src/providers/messaging/twilio.ts';
import { VonageSms } from '../../src/providers/messaging/vonage.ts';
import { WhatsAppCloud } from '../../src/providers/messaging/whatsapp-cloud.ts';
import { silentServer } from '../helpers/silent-server.ts';
import { VendorServer } from '../helpers/vendor-server.ts';
import * as vendors from '../helpers/vendors.ts';

// Each provider against a local server that checks its requests as the vendor documents them (path, auth,
// body) and answers as the vendor does, success and error; plus a refused connection and a timeout.

const sms = (to = '+14155550100', text = 'Your verification code is 123456.'): OutgoingMessage => ({
  to,
  channel: 'sms',
  text,
  code: '123456',
  language: 'en',
});

/** A provider's failures: an outage (503), a vendor that never answers, and nobody listening. */
async function failsEveryWay(
  make: (apiUrl: string, timeoutMs: number) => { send(m: OutgoingMessage): Promise<unknown> },
  server: VendorServer,
  url: string,
) {
  server.failWith = 503;
  await assert.rejects(make(url, 5000).send(sms()), ProviderError, 'a non-2xx answer');
  server.failWith = 0;
  const silent = await silentServer();
  try {
    await assert.rejects(make(`http://127.0.0.1:${silent.port}`, 200).send(sms()), /timed out/, 'a timeout');
  } finally {
    await silent.close();
  }
  await assert.rejects(make('http://127.0.0.1:1', 5000).send(sms()), /unreachable/, 'a refused connection');
}

describe('console', () => {
  test('prints the text on its own line; on a terminal, set apart with blank lines and a highlight', async () => {
    const lines: string[] = [];
    await new ConsoleMessages('console', (l) => lines.push(l), false).send(
      sms(undefined, 'Your code is 123456'),
    );
    await new ConsoleMessages('console', (l) => lines.push(l), true).send(
      sms(undefined, 'Your code is 123456'),
    );
    assert.deepEqual(lines, [
      '[sms:console] to +14155550100: Your code is 123456\n',
      '\n\u001b[1;33;40m [sms:console] to +14155550100: Your code is 123456 \u001b[0m\n\n',
    ]);
  });
});

describe('http (the generic gateway)', () => {
  const server = new VendorServer(vendors.gateway);
  let url: string;
  before(async () => {
    url = await server.start();
  });
  after(() => server.close());

  test('POSTs {to, message, channel, code} as JSON; fails on non-2xx, timeouts and refused connections', async () => {
    await new HttpGateway('gw', `${url}/send`).send(sms());
    const req = server.requests[0];
    assert.equal(req.path, '/send');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.deepEqual(req.json, {
      to: '+14155550100',
      message: 'Your verification code is 123456.',
      channel: 'sms',
      code: '123456',
    });
    await failsEveryWay((u, ms) => new HttpGateway('gw', `${u}/send`, ['sms'], ms), server, url);
  });
});

describe('twilio', () => {
  const server = new VendorServer(vendors.twilio('AC123', 'token-1'));
  let url: string;
  const make = (apiUrl: string, timeoutMs = 5000, extra = {}) =>
    new TwilioMessages(
      'tw',
      {
        accountSid: 'AC123',
        authToken: 'token-1',
        from: '+15005550006',
        whatsappContentSid: 'HX9',
        apiUrl,
        ...extra,
      },
      timeoutMs,
    );
  before(async () => {
    url = await server.start();
  });
  after(() => server.close());

  test('SMS: the Messages API with Basic auth and To/From/Body; a Messaging Service goes as MessagingServiceSid', async () => {
    const sent = await make(url).send(sms());
    assert.match(sent.providerMessageId ?? '', /^SM[0-9a-f]{32}$/, 'the message SID');
    const req = server.requests.at(-1);
    assert.equal(req?.path, '/2010-04-01/Accounts/AC123/Messages.json');
    assert.deepEqual(req?.form, {
      To: '+14155550100',
      Body: 'Your verification code is 123456.',
      From: '+15005550006',
    });
    await make(url, 5000, { from: 'MG999' }).send(sms());
    assert.deepEqual(server.requests.at(-1)?.form, {
      To: '+14155550100',
      Body: 'Your verification code is 123456.',
      MessagingServiceSid: 'MG999',
    });
  });

  test('WhatsApp: the approved content template, the code as its variable 1', async () => {
    await make(url).send({ ...sms(), channel: 'whatsapp' });
    assert.deepEqual(server.requests.at(-1)?.form, {
      To: 'whatsapp:+14155550100',
      From: 'whatsapp:+15005550006',
      ContentSid: 'HX9',
      ContentVariables: '{"1":"123456"}',
    });
  });

  test('voice: the Calls API with TwiML that reads the code digit by digit, twice, in the language', async () => {
    const sent = await make(url).send({
      ...sms(),
      channel: 'voice',
      text: 'Your verification code is',
      language: 'pt-BR',
    });
    assert.match(sent.providerMessageId ?? '', /^CA/);
    const form = server.requests.at(-1)?.form ?? {};
    assert.equal(server.requests.at(-1)?.path, '/2010-04-01/Accounts/AC123/Calls.json');
    assert.equal(form.To, '+14155550100');
    assert.equal(form.From, '+15005550006');
    const digits = [...form.Twiml.matchAll(/<Say language="pt-BR">(\d)<\/Say><Pause length="1"\/>/g)].map(
      (m) => m[1],
    );
    assert.deepEqual(digits, [...'123456123456'], 'each digit alone with a pause, twice');
  });

  test("Twilio's errors (a wrong token, a bad number), outages, timeouts and refused connections fail the send", async () => {
    await assert.rejects(
      new TwilioMessages('tw', {
        accountSid: 'AC123',
        authToken: 'wrong',
        from: '+15005550006',
        apiUrl: url,
      }).send(sms()),
      (err: Error) =>
        err instanceof ProviderError && /401/.test(err.message) && !err.message.includes('wrong'),
    );
    await assert.rejects(make(url).send(sms('+1')), /400.*21211/);
    await failsEveryWay((u, ms) => make(u, ms), server, url);
  });
});

describe('whatsapp_cloud', () => {
  const server = new VendorServer(vendors.whatsappCloud('1234', 'meta-token'));
  let url: string;
  const make = (apiUrl: string, timeoutMs = 5000, token = 'meta-token') =>
    new WhatsAppCloud(
      'meta',
      {
        phoneNumberId: '1234',
        accessToken: token,
        template: 'login_code',
        language: 'en_US',
        languages: { pt: 'pt_BR' },
        apiUrl: `${apiUrl}/v21.0`,
      },
      timeoutMs,
    );
  before(async () => {
    url = await server.start();
  });
  after(() => server.close());

  test('an authentication template: the code in the body and in the copy-code button, in an approved language', async () => {
    const sent = await make(url).send({ ...sms(), channel: 'whatsapp', language: 'pt-BR' });
    assert.match(sent.providerMessageId ?? '', /^wamid\./);
    const req = server.requests.at(-1);
    assert.equal(req?.path, '/v21.0/1234/messages');
    assert.equal(req?.headers.authorization, 'Bearer meta-token');
    const code = { type: 'text', text: '123456' };
    assert.deepEqual(req?.json, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '14155550100',
      type: 'template',
      template: {
        name: 'login_code',
        language: { code: 'pt_BR' },
        components: [
          { type: 'body', parameters: [code] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [code] },
        ],
      },
    });
    await make(url).send({ ...sms(), channel: 'whatsapp', language: 'sw' });
    assert.deepEqual(
      (server.requests.at(-1)?.json as { template: { language: unknown } }).template.language,
      { code: 'en_US' },
    );
  });

  test("Meta's errors, a notice (no code), outages, timeouts and refused connections fail the send", async () => {
    await assert.rejects(make(url, 5000, 'expired').send({ ...sms(), channel: 'whatsapp' }), /401.*190/);
    await assert.rejects(make(url).send({ ...sms(), code: undefined }), /codes only/);
    await failsEveryWay((u, ms) => make(u, ms), server, url);
  });
});

describe('vonage', () => {
  const server = new VendorServer(vendors.vonage('key-1', 'secret-1'));
  let url: string;
  const make = (apiUrl: string, timeoutMs = 5000, apiSecret = 'secret-1') =>
    new VonageSms('vg', { apiKey: 'key-1', apiSecret, from: 'Callsign', apiUrl }, timeoutMs);
  before(async () => {
    url = await server.start();
  });
  after(() => server.close());

  test('the SMS API: key and secret in the form, the number without its plus; unicode texts as unicode', async () => {
    const sent = await make(url).send(sms());
    assert.ok(sent.providerMessageId);
    const req = server.requests.at(-1);
    assert.equal(req?.path, '/sms/json');
    assert.equal(req?.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(req?.form, {
      api_key: 'key-1',
      api_secret: 'secret-1',
      from: 'Callsign',
      to: '14155550100',
      text: 'Your verification code is 123456.',
    });
    await make(url).send(sms(undefined, 'आपका कोड 123456 है'));
    assert.equal(server.requests.at(-1)?.form.type, 'unicode');
  });

  test('a 200 with a refusing status is a failure, named by its error text, never by the secret', async () => {
    await assert.rejects(
      make(url, 5000, 'bad-secret').send(sms()),
      (err: Error) =>
        err instanceof ProviderError &&
        /status 4 Bad Credentials/.test(err.message) &&
        !err.message.includes('bad-secret'),
    );
    await failsEveryWay((u, ms) => make(u, ms), server, url);
  });
});

describe('msg91', () => {
  const server = new VendorServer(vendors.msg91('auth-1', '1207160000000000001'));
  let url: string;
  const make = (apiUrl: string, timeoutMs = 5000, authKey = 'auth-1') =>
    new Msg91('msg91', { authKey, templateId: '1207160000000000001', apiUrl }, timeoutMs);
  before(async () => {
    url = await server.start();
  });
  after(() => server.close());

  test('SendOTP: the DLT template, the number and the code in the query, the authkey header', async () => {
    const sent = await make(url).send(sms('+919812345678'));
    assert.ok(sent.providerMessageId);
    const req = server.requests.at(-1);
    assert.equal(req?.path, '/api/v5/otp');
    assert.equal(req?.headers.authkey, 'auth-1');
    assert.deepEqual(Object.fromEntries(req?.query ?? []), {
      template_id: '1207160000000000001',
      mobile: '919812345678',
      otp: '123456',
    });
  });

  test("MSG91's errors (also with a 200), a notice, outages, timeouts and refused connections fail the send", async () => {
    await assert.rejects(make(url, 5000, 'wrong').send(sms('+919812345678')), /401/);
    await assert.rejects(make(url).send(sms('+1')), /MSG91 refused the message: Mobile no. not found/);
    await assert.rejects(make(url).send({ ...sms(), code: undefined }), /codes only/);
    await failsEveryWay((u, ms) => make(u, ms), server, url);
  });
});

describe('termii', () => {
  const server = new VendorServer(vendors.termii('termii-key'));
  let url: string;
  const make = (apiUrl: string, timeoutMs = 5000, apiKey = 'termii-key') =>
    new TermiiSms('termii', { apiKey, from: 'Callsign', route: 'dnd', apiUrl }, timeoutMs);
  before(async () => {
    url = await server.start();
  });
  after(() => server.close());

  test('the Messaging API: JSON with the API key, the number without its plus, the dnd route', async () => {
    const sent = await make(url).send(sms('+2348031234567'));
    assert.ok(sent.providerMessageId);
    const req = server.requests.at(-1);
    assert.equal(req?.path, '/api/sms/send');
    assert.deepEqual(req?.json, {
      api_key: 'termii-key',
      to: '2348031234567',
      from: 'Callsign',
      sms: 'Your verification code is 123456.',
      type: 'plain',
      channel: 'dnd',
    });
  });

  test("Termii's errors, outages, timeouts and refused connections fail the send", async () => {
    await assert.rejects(make(url, 5000, 'wrong').send(sms()), /401/);
    await failsEveryWay((u, ms) => make(u, ms), server, url);
  });
});

test("a vendor's Retry-After: delay-seconds as they are, an HTTP-date counted from the answer's own Date", () => {
  assert.equal(retryAfterOf(new Headers({ 'retry-after': '120' })), 120);
  const date = 'Sat, 28 Nov 2026 10:00:00 GMT';
  assert.equal(retryAfterOf(new Headers({ 'retry-after': 'Sat, 28 Nov 2026 10:01:30 GMT', date })), 90);
  // A date with no Date of the vendor's to count from, or nothing readable: no pause.
  assert.equal(retryAfterOf(new Headers({ 'retry-after': 'Sat, 28 Nov 2026 10:01:30 GMT' })), undefined);
  assert.equal(retryAfterOf(new Headers({ 'retry-after': 'soon' })), undefined);
  assert.equal(retryAfterOf(new Headers()), undefined);
});
