import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildContainer, type Container, connectRedis } from '../../src/composition/container.ts';
import { loadConfig } from '../../src/config/config.ts';
import type { Secrets } from '../../src/config/secrets.ts';
import { parsePhone } from '../../src/domain/phone.ts';
import { buildApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/observability/logger.ts';
import { ManualClock } from '../../src/providers/clock.ts';
import type { WebhookSender } from '../../src/providers/webhook-sender.ts';
import type { Database } from '../../src/storage/db.ts';
import { outboxRepo } from '../../src/storage/repositories/outbox.ts';
import { freshDatabase, TEST_REDIS_URL, type TestDatabase, testSecrets } from './database.ts';
import { SmsReceiver } from './sms-receiver.ts';

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test answers are read field by field
  body: any;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  ip?: string;
}

export interface TestApp {
  app: FastifyInstance;
  c: Container;
  clock: ManualClock;
  sms: SmsReceiver;
  logs: string[];
  request(method: string, url: string, opts?: RequestOptions): Promise<Answer>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** a second instance on the same database, Redis prefix, clock and SMS gateway */
  shareWith?: TestApp;
  webhookSender?: WebhookSender;
  /** the PIN pepper and key-encryption keys (testSecrets, which made the database's signing key, by default) */
  secrets?: Secrets;
  /** a database the test made (migrated), instead of a fresh one of the helper's; the test closes it */
  database?: Database;
}

/** A whole Callsign on a database of its own, a real SMS gateway on 127.0.0.1 and a clock the test moves. */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const shared = opts.shareWith;
  const sms = shared?.sms ?? new SmsReceiver();
  const smsUrl = shared ? (shared.c.config.smsHttpUrl as string) : await sms.start();
  const database: TestDatabase | undefined = shared || opts.database ? undefined : await freshDatabase();
  const db = shared?.c.db ?? opts.database ?? (database as TestDatabase).db;
  const clock = shared?.clock ?? new ManualClock();
  // What this app opened of its own, closed again also when its configuration or start is refused.
  const release = async () => {
    if (!shared) {
      await sms.close();
      await database?.drop();
    }
  };
  try {
    return await startApp();
  } catch (err) {
    await release();
    throw err;
  }

  async function startApp(): Promise<TestApp> {
    const config = loadConfig({
      APP_ENV: 'test',
      DATABASE_URL: 'memory://',
      BASE_URL: 'http://callsign.test',
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: smsUrl,
      LOG_LEVEL: 'info',
      ...(TEST_REDIS_URL
        ? {
            REDIS_URL: TEST_REDIS_URL,
            REDIS_KEY_PREFIX: shared?.c.config.redisKeyPrefix ?? `test:${randomBytes(6).toString('hex')}:`,
          }
        : {}),
      ...opts.env,
    });
    const logs: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        logs.push(chunk.toString());
        done();
      },
    });
    const redis = connectRedis(config);
    const c = await buildContainer(config, {
      db,
      ownsDb: false,
      redis,
      clock,
      secrets: opts.secrets ?? testSecrets,
      logger: createLogger(config.logLevel, sink),
      webhookSender: opts.webhookSender,
    }).catch(async (err) => {
      await redis?.quit().catch(() => redis.disconnect());
      throw err;
    });
    const app = await buildApp(c);
    await app.ready();

    return {
      app,
      c,
      clock,
      sms,
      logs,
      async request(method, url, { body, token, headers = {}, ip } = {}) {
        const res = await app.inject({
          method: method as 'GET',
          url,
          remoteAddress: ip,
          headers: {
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...headers,
          },
          payload:
            body === undefined
              ? undefined
              : typeof body === 'string' || Buffer.isBuffer(body)
                ? body
                : JSON.stringify(body),
        });
        let parsed: unknown = res.body;
        try {
          parsed = JSON.parse(res.body);
        } catch {}
        return { status: res.statusCode, body: parsed, headers: res.headers };
      },
      async close() {
        await app.close();
        await c.close();
        await redis?.quit().catch(() => redis.disconnect());
        await release();
      },
    };
  }
}

/**
 * A valid phone number no other test of this process uses: counted, like uniqueIp, since a few hundred
 * numbers drawn at random from millions meet again now and then (a sign-up then finds PHONE_EXISTS). Each
 * test app has a database of its own, so processes need not differ. Steps of 1,001 put each number in a
 * block of 1,000 of its own (sends count per block), and stay distinct for 8 million numbers.
 */
let phonesGiven = 0;
export function uniquePhone(): string {
  for (;;) {
    const candidate = `+1650${2_000_000 + ((++phonesGiven * 1001) % 8_000_000)}`;
    try {
      return parsePhone(candidate).e164;
    } catch {}
  }
}

export const uniqueHandle = () => `u${randomBytes(6).toString('hex')}`;
/**
 * A client address of its own, so per-address limits of one test do not touch another flow's: counted, not
 * drawn at random (254 random addresses met again, and a test that used up an address's 10 sends an hour
 * failed a later one by chance). From 198.18.0.0/15 (RFC 2544), 131070 per process; each test app has
 * counters of its own, so processes need not differ.
 */
let addressesGiven = 0;
export const uniqueIp = () => {
  const n = ++addressesGiven;
  return `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
};

export interface SignedUp {
  phone: string;
  pin: string;
  handle: string;
  user: Record<string, unknown> & { id: string };
  access_token: string;
  refresh_token: string;
}

export async function verifiedTempToken(
  t: TestApp,
  phone: string,
  purpose: 'signup' | 'pin_reset',
  ip = uniqueIp(),
) {
  const sent = await t.request('POST', '/auth/otp/send', { body: { phone, purpose }, ip });
  if (sent.status !== 200) throw new Error(`otp/send failed: ${JSON.stringify(sent.body)}`);
  const verified = await t.request('POST', '/auth/otp/verify', {
    body: { phone, purpose, code: t.sms.lastCode(phone) },
    ip,
  });
  if (verified.status !== 200) throw new Error(`otp/verify failed: ${JSON.stringify(verified.body)}`);
  return verified.body.data.temp_token as string;
}

/** The whole sign-up flow through HTTP: OTP sent, read from the gateway, verified, account created. */
export async function signUp(
  t: TestApp,
  o: { phone?: string; pin?: string; handle?: string; name?: string; device?: unknown } = {},
): Promise<SignedUp> {
  const phone = o.phone ?? uniquePhone();
  const pin = o.pin ?? '482916';
  const handle = o.handle ?? uniqueHandle();
  const ip = uniqueIp();
  const temp_token = await verifiedTempToken(t, phone, 'signup', ip);
  const res = await t.request('POST', '/auth/signup', {
    body: { temp_token, pin, handle, name: o.name, device: o.device },
    ip,
  });
  if (res.status !== 200) throw new Error(`signup failed: ${JSON.stringify(res.body)}`);
  return { phone, pin, handle, ...res.body.data };
}

export const events = (t: TestApp, type?: string) => outboxRepo.list(t.c.db, type);

/** Sessions not revoked of a user (or, with `of: 'client_id'`, of a client), read from the database. */
export const unrevokedSessions = async (t: TestApp, id: string, of: 'user_id' | 'client_id' = 'user_id') =>
  (await t.c.db.query(`SELECT 1 FROM sessions WHERE ${of} = $1 AND revoked_at IS NULL`, [id])).length;

/**
 * Opens `n` more sessions of a user on the REST surface straight through the domain (a sign-in each would
 * hash the PIN `n` times), each `stepSeconds` after the one before; answers their ids, oldest first.
 */
export async function openSessions(
  t: TestApp,
  userId: string,
  n: number,
  stepSeconds = 0,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    t.clock.advance(stepSeconds);
    const opened = await t.c.db.transaction((tx) =>
      t.c.sessions.open(tx, {
        userId,
        clientId: t.c.config.firstPartyClientId,
        device: { name: `Device ${i}`, platform: 'web' },
        ipAddress: null,
        scope: 'openid profile phone email kyc',
      }),
    );
    ids.push(opened.session.id);
  }
  return ids;
}
