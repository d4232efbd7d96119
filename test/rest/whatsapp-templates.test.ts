import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, uniqueIp } from '../helpers/app.ts';
import { problemsOf } from '../helpers/config-problems.ts';
import { writeConfig } from '../helpers/messaging.ts';
import { VendorServer } from '../helpers/vendor-server.ts';
import * as vendors from '../helpers/vendors.ts';
import { type StoredTemplate, withTemplates } from '../helpers/whatsapp-business.ts';

// The WhatsApp authentication template, made at start through Meta's Business Management API where it is
// missing, in each language the provider sends codes in, with the button the provider names: copy code by
// default, one-tap and zero-tap naming the Android apps that give their SMS Retriever hash. A template found
// as expected is left alone; one found with another button is reported. Each creation is checked by the fake
// API as Meta documents an authentication template.

const FINGERPRINT = `${'AB:'.repeat(31)}AB`;
const WABA = '1029384756';

function metaWith(templates: StoredTemplate[]) {
  return new VendorServer(
    withTemplates(WABA, 'meta-token-0123', templates, vendors.whatsappCloud('55', 'meta-token-0123')),
  );
}

/** A service whose WhatsApp provider names the business account and `otp_type`. */
async function serviceWith(metaUrl: string, otpType?: string, env: Record<string, string> = {}) {
  const path = writeConfig({
    providers: {
      meta: {
        type: 'whatsapp_cloud',
        phone_number_id: '55',
        access_token: 'meta-token-0123',
        template: 'login_code',
        languages: { pt: 'pt_BR' },
        business_account_id: WABA,
        ...(otpType ? { otp_type: otpType } : {}),
        api_url: metaUrl,
      },
      console: { type: 'console' },
    },
    routes: [{ countries: ['*'], whatsapp: ['meta'], sms: ['console'] }],
  });
  return createTestApp({ env: { SMS_PROVIDER: '', MESSAGING_CONFIG: path, ...env } });
}

describe('WhatsApp authentication templates', () => {
  const templates: StoredTemplate[] = [];
  const meta = metaWith(templates);
  let url: string;
  before(async () => {
    url = await meta.start();
  });
  after(() => meta.close());

  test('copy code by default: made in each language at start, then found and left alone', async () => {
    const t = await serviceWith(url);
    try {
      const reports = await t.c.whatsappTemplates;
      assert.deepEqual(reports, [
        { language: 'en_US', outcome: 'created' },
        { language: 'pt_BR', outcome: 'created' },
      ]);
      const made = templates.find((x) => x.language === 'en_US');
      assert.deepEqual(made?.components, [
        { type: 'BODY', add_security_recommendation: true },
        { type: 'FOOTER', code_expiration_minutes: 5 },
        { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] },
      ]);
      // The code still goes in the template's body and button.
      const sent = await t.request('POST', '/auth/otp/send', {
        body: { phone: '+5511987650001', purpose: 'signup', channel: 'whatsapp' },
        ip: uniqueIp(),
      });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
    } finally {
      await t.close();
    }
    const again = await serviceWith(url);
    try {
      assert.deepEqual(
        (await again.c.whatsappTemplates).map((r) => r.outcome),
        ['found', 'found'],
      );
    } finally {
      await again.close();
    }
    assert.equal(templates.length, 2, 'nothing made twice');
  });

  test('one-tap and zero-tap name the apps and their hashes; another button found is reported', async () => {
    for (const [otpType, name] of [
      ['one_tap', 'ONE_TAP'],
      ['zero_tap', 'ZERO_TAP'],
    ] as const) {
      const own: StoredTemplate[] = [];
      const server = metaWith(own);
      const t = await serviceWith(await server.start(), otpType, {
        ANDROID_APPS: `com.duka.app:${FINGERPRINT}:Xb3kP0q9Lmn`,
      });
      try {
        assert.deepEqual(
          (await t.c.whatsappTemplates).map((r) => r.outcome),
          ['created', 'created'],
          otpType,
        );
        const button = (own[0].components[2].buttons as Array<Record<string, unknown>>)[0];
        assert.equal(button.otp_type, name);
        assert.deepEqual(button.supported_apps, [
          { package_name: 'com.duka.app', signature_hash: 'Xb3kP0q9Lmn' },
        ]);
        if (otpType === 'zero_tap') assert.equal(button.zero_tap_terms_accepted, true);
      } finally {
        await t.close();
        await server.close();
      }
    }
    // The copy-code templates of the first test, found by a provider that wants one-tap.
    const t = await serviceWith(url, 'one_tap', { ANDROID_APPS: `com.duka.app:${FINGERPRINT}:Xb3kP0q9Lmn` });
    try {
      const reports = await t.c.whatsappTemplates;
      assert.deepEqual(reports[0], {
        language: 'en_US',
        outcome: 'differs',
        detail: 'its button is copy_code, not one_tap',
      });
      assert.ok(t.logs.some((line) => line.includes('WhatsApp template differs')));
    } finally {
      await t.close();
    }
  });

  test('one-tap without an Android app that gives its hash is refused at start', () => {
    const path = writeConfig({
      providers: {
        meta: {
          type: 'whatsapp_cloud',
          phone_number_id: '55',
          access_token: 'x',
          template: 'login_code',
          otp_type: 'zero_tap',
        },
      },
      routes: [{ countries: ['*'], whatsapp: ['meta'] }],
    });
    const problems = problemsOf({
      SMS_PROVIDER: '',
      MESSAGING_CONFIG: path,
      ANDROID_APPS: `com.duka.app:${FINGERPRINT}`,
    });
    assert.ok(
      problems.some((p) =>
        p.includes('otp_type zero_tap needs an ANDROID_APPS entry with its SMS Retriever hash'),
      ),
      problems.join('; '),
    );
  });
});
