import { generateKeyPairSync } from 'node:crypto';
import { type Answer, createTestApp, type TestApp } from './app.ts';
import type { FakeNetworkVendor } from './fake-network-vendor.ts';
import { FakeOperator } from './fake-operator.ts';
import { FakeTwilioVerify } from './fake-twilio-verify.ts';
import { FakeVonage } from './fake-vonage.ts';

// A test app whose silent checks go to a local vendor on the app's clock: an operator as CAMARA describes one
// (test/helpers/fake-operator.ts, knowing the app's callbacks and its key), Vonage, or Twilio; and a device
// that opens a check's URL and comes back as that vendor sends it back.

/** A device on the operator's data network, and one on Wi-Fi (any other loopback address). */
export const PHONE_ADDRESS = '127.0.0.2';
export const WIFI_ADDRESS = '127.0.0.3';

export type NetworkProvider = 'camara' | 'vonage' | 'twilio';

export interface NetworkApp {
  t: TestApp;
  provider: NetworkProvider;
  /** the vendor's fake: the numbers devices hold, and trouble at the check's last call */
  vendor: FakeNetworkVendor;
  /** the CAMARA operator, where the provider is camara */
  operator: FakeOperator;
  close(): Promise<void>;
}

const vonageKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });

/** The fake of `provider`, started, with the settings that reach it and what the test may set on it. */
async function vendorFor(provider: NetworkProvider, holder: { t?: TestApp }, redirectUris: string[]) {
  const now = () => holder.t?.clock.now().getTime() ?? Date.now();
  if (provider === 'vonage') {
    const fake = new FakeVonage({ applicationId: 'callsign-app', publicKey: vonageKeys.publicKey }, now);
    const url = await fake.start();
    const pem = String(vonageKeys.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const env = {
      NETWORK_VERIFICATION_VONAGE_APPLICATION_ID: 'callsign-app',
      NETWORK_VERIFICATION_VONAGE_PRIVATE_KEY: pem,
      NETWORK_VERIFICATION_VONAGE_API_URL: url,
    };
    return { fake, env };
  }
  if (provider === 'twilio') {
    const account = { accountSid: 'AC0000test', authToken: 'twilio-auth-token', serviceSid: 'VA0000test' };
    const fake = new FakeTwilioVerify(account, now);
    const url = await fake.start();
    const env = {
      TWILIO_ACCOUNT_SID: account.accountSid,
      TWILIO_AUTH_TOKEN: account.authToken,
      NETWORK_VERIFICATION_TWILIO_SERVICE_SID: account.serviceSid,
      NETWORK_VERIFICATION_TWILIO_API_URL: url,
    };
    return { fake, env };
  }
  const fake = new FakeOperator({
    clientId: 'callsign-test',
    redirectUris,
    jwk: async () =>
      (await holder.t?.request('GET', '/.well-known/network-verification-jwks.json'))?.body.keys[0],
    now,
  });
  const url = await fake.start();
  const env = {
    NETWORK_VERIFICATION_CAMARA_ISSUER: url,
    NETWORK_VERIFICATION_CAMARA_API_ROOT: `${url}/number-verification/v2`,
    NETWORK_VERIFICATION_CAMARA_CLIENT_ID: 'callsign-test',
  };
  return { fake, env };
}

export async function networkApp(
  env: Record<string, string> = {},
  provider: NetworkProvider = 'camara',
): Promise<NetworkApp> {
  const holder: { t?: TestApp } = {};
  const redirectUris: string[] = [];
  const { fake, env: vendorEnv } = await vendorFor(provider, holder, redirectUris);
  const t = await createTestApp({
    env: { NETWORK_VERIFICATION_PROVIDER: provider, ...vendorEnv, ...env },
  }).catch(async (err) => {
    await fake.close();
    throw err;
  });
  holder.t = t;
  redirectUris.push(
    `${t.c.config.authUrl}/auth/network/callback`,
    `${t.c.config.authUrl}/authorize/network/callback`,
  );
  return {
    t,
    provider,
    vendor: fake,
    get operator() {
      if (!(fake instanceof FakeOperator)) throw new Error(`the provider is ${provider}, not camara`);
      return fake;
    },
    async close() {
      await t.close();
      await fake.close();
    },
  };
}

/**
 * The device opens the check's URL from `address` and comes back to Callsign as its vendor sends it: CAMARA to
 * the callback with the answer in the query; Vonage to the callback with the answer in the fragment, which
 * the page's script posts; Twilio not at all (its own page is the answer).
 */
export async function deviceReturns(t: TestApp, url: string, address: string): Promise<Answer> {
  const sent = await FakeOperator.follow(url, address);
  if (sent.status === 200) return { status: 200, headers: {}, body: 'the vendor’s own page' } as Answer;
  if (sent.status !== 302 || !sent.location) throw new Error(`the vendor answered ${sent.status}`);
  const back = new URL(sent.location);
  const page = await t.request('GET', `${back.pathname}${back.search}`);
  if (!back.hash) return page;
  // What the page's script does: the fragment's answer posted with the form's own fields.
  const form = /data-network-return>(.*?)<\/form>/s.exec(String(page.body))?.[1] ?? '';
  const fields = Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((m) => [m[1], m[2]]),
  );
  const answer = Object.fromEntries(new URLSearchParams(back.hash.slice(1)));
  return t.request('POST', back.pathname, {
    body: new URLSearchParams({ ...fields, ...answer }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}
