// one code exchange and one refresh against the service; prints the statements PostgreSQL ran for each
import { randomInt } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { client } from './bench/load.ts';
import { oauthSteps } from './bench/oauth-steps.ts';
import { startServer } from './bench/server.ts';
import { postgresDatabase } from './src/storage/db.ts';

const LOG = '/var/log/postgresql/postgresql-15-main.log';
const name = `sqlc_${randomInt(1e9)}`;
const admin = postgresDatabase('postgres://postgres@127.0.0.1/root', { max: 1 });
await admin.exec(`CREATE SCHEMA ${name}`);
const url = `postgres://postgres@127.0.0.1/root?options=${encodeURIComponent(`-c search_path=${name} -c log_statement=all`)}`;
const ADMIN = 'x'.repeat(40);
const phone = '+16505550123';
const server = await startServer({
  DATABASE_URL: url,
  ADMIN_TOKEN: ADMIN,
  TEST_PHONE_NUMBERS: `${phone}=000000`,
  REDIS_URL: 'redis://127.0.0.1:6379',
  REDIS_KEY_PREFIX: `${name}:`,
  WEB_CONCURRENCY: '1',
});
const http = client(server.port, 4);
await http.post('/auth/otp/send', { phone, purpose: 'signup' });
const v = await http.post('/auth/otp/verify', { phone, code: '000000', purpose: 'signup' });
await http.post('/auth/signup', { temp_token: v.body.data.temp_token, pin: '480715', handle: 'sqlc_user' });
const s = await http.post('/auth/signin', { phone, pin: '480715' });
const oauth = await oauthSteps(http, ADMIN, { phone, pin: '480715' }, 1);
const mark = async (label: string, fn: () => Promise<unknown>) => {
  await new Promise((r) => setTimeout(r, 300));
  const start = statSync(LOG).size;
  await fn();
  await new Promise((r) => setTimeout(r, 300));
  const text = readFileSync(LOG).subarray(start).toString();
  const stmts = text
    .split('\n')
    .filter((l) => /LOG: {2}(statement|execute)/.test(l))
    .map((l) => l.replace(/^.*?LOG: {2}/, '').slice(0, 150));
  console.log(`== ${label}: ${stmts.length}`);
  for (const x of stmts) console.log('  ', x);
};
await mark('REST refresh', () => http.post('/auth/refresh', { refresh_token: s.body.data.refresh_token }));
await mark('code exchange', () => oauth.codeStep());
await mark('oauth refresh', () => oauth.refreshStep(0));
await server.stop();
await admin.exec(`DROP SCHEMA ${name} CASCADE`);
await admin.close();
