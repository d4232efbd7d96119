import { randomInt } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parsePhone } from '../src/domain/phone.ts';
import { type Answer, client } from './load.ts';
import { oauthSteps } from './oauth-steps.ts';
import { startServer } from './server.ts';

// What each hot request asks of the database and Redis when it is alone (nothing to batch it with), as the
// service counts it (ROUND_TRIP_COUNTS, its answers' X-Round-Trips): the statements and their round trips, the
// Redis commands and theirs. Each request is sent three times and the third is counted, so that caches a
// first request fills (a client, a key) are filled; a code send goes to a new number each time, and the code
// of the third is verified once. Printed by every `npm run bench`, so that a change that
// adds a round trip shows.

const PIN = '480715';
const PHONE = '+16505550149';

/** An SMS gateway (SMS_PROVIDER=http) that keeps each number's last code. */
async function codeGateway() {
  const codes = new Map<string, string>();
  const server = createHttpServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const sent = JSON.parse(body) as { to: string; message: string };
      const code = /\b(\d{6})\b/.exec(sent.message)?.[1];
      if (code) codes.set(sent.to, code);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`, codes, server };
}

/** A number that is not a test number, new each time. */
const freshNumber = (): string => {
  for (;;)
    try {
      return parsePhone(`+1650${randomInt(2_000_000, 9_999_999)}`).e164;
    } catch {}
};

const countsOf = (a: Answer, name: string): number[] => {
  const header = a.headers['x-round-trips'];
  if (typeof header !== 'string') throw new Error(`${name}: no X-Round-Trips (status ${a.status})`);
  return header.split(', ').map((pair) => Number(pair.split('=')[1]));
};

/** The rows of the round-trip table, for a service on this database (PGlite without one) and Redis. */
export async function roundTripCounts(
  limits: string,
  adminToken: string,
  database?: { url: string },
  redisUrl?: string,
): Promise<string[]> {
  const gateway = await codeGateway();
  const server = await startServer({
    RATE_LIMITS: limits,
    ADMIN_TOKEN: adminToken,
    ROUND_TRIP_COUNTS: 'true',
    WEB_CONCURRENCY: '1',
    SMS_PROVIDER: 'http',
    SMS_HTTP_URL: gateway.url,
    TEST_PHONE_NUMBERS: `${PHONE}=000000`,
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `bench-rt:${randomInt(1e9)}:` } : {}),
  });
  try {
    const http = client(server.port, 1);
    const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      http.send('POST', path, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
    const form = (body: string) =>
      http.send('POST', '/oauth/token', body, { 'content-type': 'application/x-www-form-urlencoded' });
    await json('/auth/otp/send', { phone: PHONE, purpose: 'signup' });
    const verified = JSON.parse(
      (await json('/auth/otp/verify', { phone: PHONE, code: '000000', purpose: 'signup' })).text,
    );
    const up = JSON.parse(
      (
        await json('/auth/signup', {
          temp_token: verified.data.temp_token,
          pin: PIN,
          handle: `bench_rt_${randomInt(1e6)}`,
        })
      ).text,
    ).data as { access_token: string; refresh_token: string };
    const oauth = await oauthSteps(http, adminToken, { phone: PHONE, pin: PIN }, 1);
    let refresh = up.refresh_token;
    let oauthRefresh = (await oauth.freshChains())[0];
    let sent = '';
    const requests: [string, () => Promise<Answer>][] = [
      ['POST /auth/signin', () => json('/auth/signin', { phone: PHONE, pin: PIN })],
      [
        'POST /auth/refresh',
        async () => {
          const a = await json('/auth/refresh', { refresh_token: refresh });
          refresh = JSON.parse(a.text).data.refresh_token;
          return a;
        },
      ],
      [
        'GET /users/me',
        () => http.send('GET', '/users/me', undefined, { authorization: `Bearer ${up.access_token}` }),
      ],
      [
        'POST /auth/otp/send (a number that is not a test number)',
        () => {
          sent = freshNumber();
          return json('/auth/otp/send', { phone: sent, purpose: 'signup' });
        },
      ],
      [
        'POST /auth/otp/verify (the third number, its code)',
        () => json('/auth/otp/verify', { phone: sent, code: gateway.codes.get(sent), purpose: 'signup' }),
      ],
      [
        'GET /authorize (single sign-on, first party: a code at once)',
        () => http.send('GET', oauth.wrk.authorize.path, undefined, { cookie: oauth.wrk.authorize.cookie }),
      ],
      [
        'POST /oauth/token (code exchange)',
        async () => {
          const back = await http.send('GET', oauth.wrk.authorize.path, undefined, {
            cookie: oauth.wrk.authorize.cookie,
          });
          const code = new URL(String(back.headers.location)).searchParams.get('code') as string;
          return form(oauth.wrk.exchangeBody.replace('{}', code));
        },
      ],
      [
        'POST /oauth/token (refresh)',
        async () => {
          const a = await form(oauth.wrk.refreshBody.replace('{}', oauthRefresh));
          oauthRefresh = JSON.parse(a.text).refresh_token;
          return a;
        },
      ],
    ];
    const rows = [
      '',
      `| one request alone (the third of three) | statements | database round trips | Redis commands | Redis round trips |`,
      '|---|---|---|---|---|',
    ];
    for (const [name, send] of requests) {
      let answer = await send();
      // A code is verified once; everything else is sent twice more.
      if (!name.startsWith('POST /auth/otp/verify')) for (let i = 0; i < 2; i++) answer = await send();
      if (answer.status >= 400) throw new Error(`${name}: ${answer.status} ${answer.text}`);
      rows.push(`| ${name} | ${countsOf(answer, name).join(' | ')} |`);
    }
    return rows;
  } finally {
    await server.stop();
    gateway.server.close();
  }
}
