import { type Answer, createTestApp, type TestApp } from './app.ts';
import { FakeOperator } from './fake-operator.ts';

// A test app whose silent checks go to a local operator (test/helpers/fake-operator.ts) that knows the app's
// callback and its key, on the app's clock; and a device that opens a check's URL and comes back.

/** A device on the operator's data network, and one on Wi-Fi (any other loopback address). */
export const PHONE_ADDRESS = '127.0.0.2';
export const WIFI_ADDRESS = '127.0.0.3';

export interface NetworkApp {
  t: TestApp;
  operator: FakeOperator;
  close(): Promise<void>;
}

export async function networkApp(env: Record<string, string> = {}): Promise<NetworkApp> {
  const holder: { t?: TestApp } = {};
  const redirectUris: string[] = [];
  const operator = new FakeOperator({
    clientId: 'callsign-test',
    redirectUris,
    jwk: async () =>
      (await holder.t?.request('GET', '/.well-known/network-verification-jwks.json'))?.body.keys[0],
    now: () => holder.t?.clock.now().getTime() ?? Date.now(),
  });
  const url = await operator.start();
  const t = await createTestApp({
    env: {
      NETWORK_VERIFICATION_PROVIDER: 'camara',
      NETWORK_VERIFICATION_CAMARA_ISSUER: url,
      NETWORK_VERIFICATION_CAMARA_API_ROOT: `${url}/number-verification/v2`,
      NETWORK_VERIFICATION_CAMARA_CLIENT_ID: 'callsign-test',
      ...env,
    },
  }).catch(async (err) => {
    await operator.close();
    throw err;
  });
  holder.t = t;
  redirectUris.push(`${t.c.config.authUrl}/auth/network/callback`);
  return {
    t,
    operator,
    async close() {
      await t.close();
      await operator.close();
    },
  };
}

/** The device opens the check's URL from `address` and follows the operator back to Callsign's callback. */
export async function deviceReturns(t: TestApp, url: string, address: string): Promise<Answer> {
  const sent = await FakeOperator.follow(url, address);
  if (sent.status !== 302 || !sent.location) throw new Error(`the operator answered ${sent.status}`);
  const back = new URL(sent.location);
  return t.request('GET', `${back.pathname}${back.search}`);
}
