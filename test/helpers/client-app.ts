import type { AddressInfo } from 'node:net';
import type { createClient, Fetch, Session, SessionEvent, SessionStorage } from '@callsign/client';
import { createTestApp, type TestApp, uniqueHandle, uniquePhone } from './app.ts';

// A Callsign listening on 127.0.0.1 for @callsign/client to call over real HTTP; every request of a client
// comes from 127.0.0.1, so the per-address limits are raised.

const RATE_LIMITS = [
  'otp_send_address=100000/3600',
  'otp_send_prefix=100000/3600',
  'signin_address=100000/900',
  'signin_phone=100000/900',
  'rest_address=100000/60',
  'rest_user=100000/60',
  'handle_check_address=100000/60',
  'api_v1_address=100000/60',
].join(',');

export const CLIENT_PIN = '480715';

export interface ListeningApp {
  t: TestApp;
  baseUrl: string;
}

export async function listeningApp(env: Record<string, string> = {}): Promise<ListeningApp> {
  const t = await createTestApp({ env: { RATE_LIMITS, ...env } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, baseUrl: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}` };
}

type Client = ReturnType<typeof createClient>;

/** The whole sign-up through the client: a code sent, read from the SMS gateway, verified, the account made. */
export async function signUpWith(t: TestApp, client: Client, phone = uniquePhone()): Promise<Session> {
  await client.auth.sendCode({ phone, purpose: 'signup' });
  const code = t.sms.lastCode(phone);
  const { tempToken } = await client.auth.verifyCode({ phone, code, purpose: 'signup' });
  return client.auth.signUp({ tempToken, pin: CLIENT_PIN, handle: uniqueHandle() });
}

/** A fetch that counts its requests by "METHOD /path" (query left off). */
export function countingFetch(inner: Fetch = fetch) {
  const counts = new Map<string, number>();
  const counted = (input: string, init: RequestInit) => {
    const key = `${init.method ?? 'GET'} ${new URL(input).pathname}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return inner(input, init);
  };
  return { fetch: counted, count: (key: string) => counts.get(key) ?? 0 };
}

/** The events a client's listeners heard, in order. */
export function heard(client: Client): SessionEvent[] {
  const seen: SessionEvent[] = [];
  client.auth.onChange((event) => seen.push(event));
  return seen;
}

/** A storage whose every answer comes later, as React Native's AsyncStorage's do. */
export function asyncStorage(): SessionStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  const later = <T>(value: () => T) => new Promise<T>((resolve) => setImmediate(() => resolve(value())));
  return {
    items,
    getItem: (key) => later(() => items.get(key) ?? null),
    setItem: (key, value) => later(() => void items.set(key, value)),
    removeItem: (key) => later(() => void items.delete(key)),
  };
}
