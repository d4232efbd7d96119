import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, signUp, type TestApp, uniqueIp, uniquePhone } from '../helpers/app.ts';

// A code's text, and the notices, in the person's language: the send's `language`, else Accept-Language,
// else DEFAULT_LANGUAGE; for an account, its own language first.

describe('the language of what a phone is sent', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { ENUMERATION_PROTECTION: 'true' } });
  });
  after(() => t.close());

  const send = (phone: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    t.request('POST', '/auth/otp/send', {
      body: { phone, purpose: 'signup', ...extra },
      headers,
      ip: uniqueIp(),
    });
  const firstLine = (phone: string) => t.sms.messagesTo(phone).at(-1)?.split('\n')[0] ?? '';

  test('the body’s language, else Accept-Language’s first that Callsign speaks, else English', async () => {
    const es = uniquePhone();
    await send(es, { language: 'es-MX' });
    assert.match(firstLine(es), /^Tu código de verificación es \d{6}\. Caduca en 5 minutos\./);
    const hi = uniquePhone();
    await send(hi, {}, { 'accept-language': 'de-DE, hi-IN;q=0.8, en;q=0.5' });
    assert.match(firstLine(hi), /^आपका सत्यापन कोड \d{6} है।/);
    const en = uniquePhone();
    await send(en, { language: 'de' });
    assert.match(firstLine(en), /^Your verification code is \d{6}\./);
  });

  test('the notice to a number that has an account is in the language asked for', async () => {
    const s = await signUp(t);
    await send(s.phone, { language: 'pt-BR' });
    assert.match(firstLine(s.phone), /^Alguém tentou criar uma conta com este número/);
  });

  test('a phone change writes in the account’s language: the code, and the notice to the old number', async () => {
    const s = await signUp(t);
    await t.request('PATCH', '/users/me', { token: s.access_token, body: { language: 'sw' } });
    const next = uniquePhone();
    await t.request('POST', '/users/me/phone', {
      token: s.access_token,
      body: { phone: next },
      ip: uniqueIp(),
    });
    assert.match(firstLine(next), /^Msimbo wako wa uthibitishaji ni (\d{6})\./);
    const code = /(\d{6})/.exec(firstLine(next))?.[1];
    const moved = await t.request('POST', '/users/me/phone/confirm', {
      token: s.access_token,
      body: { phone: next, code, pin: s.pin },
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.match(t.sms.messagesTo(s.phone).at(-1) ?? '', /^Nambari ya simu ya akaunti yako imebadilishwa/);
  });
});

test('DEFAULT_LANGUAGE when nothing asks for another', async () => {
  const t = await createTestApp({ env: { DEFAULT_LANGUAGE: 'fr' } });
  try {
    const phone = uniquePhone();
    await t.request('POST', '/auth/otp/send', { body: { phone, purpose: 'signup' } });
    assert.match(
      t.sms.messagesTo(phone)[0],
      /^Votre code de vérification est \d{6}\. Il expire dans 5 minutes\./,
    );
  } finally {
    await t.close();
  }
});
