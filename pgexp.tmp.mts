import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const variant = process.argv[2] ?? 'fk';
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1/root' });
await admin.connect();
await admin.query('DROP SCHEMA IF EXISTS exp CASCADE; CREATE SCHEMA exp');
await admin.query(`SET search_path=exp;
CREATE TABLE sessions (id uuid PRIMARY KEY, user_id uuid NOT NULL, client_id text NOT NULL, scope text NOT NULL, revoked_at timestamptz, last_used_at timestamptz NOT NULL, device_name text, platform text, ip_address text, created_at timestamptz not null default now(), auth_time timestamptz not null default now(), revoke_reason text);
CREATE TABLE refresh_tokens (token_hash text PRIMARY KEY, session_id uuid NOT NULL ${variant === 'fk' ? 'REFERENCES sessions (id) ON DELETE CASCADE' : ''}, client_id text NOT NULL, issued_at timestamptz NOT NULL, expires_at timestamptz NOT NULL, rotated_at timestamptz, successor_hash text);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);`);
const sha = (s: string) => createHash('sha256').update(s).digest('base64url');
const chains: string[] = [];
for (let i = 0; i < 64; i++) {
  const id = randomUUID();
  await admin.query(
    `INSERT INTO exp.sessions (id,user_id,client_id,scope,last_used_at) VALUES ($1,$2,'rest','',now())`,
    [id, randomUUID()],
  );
  const t = randomBytes(32).toString('base64url');
  await admin.query(`INSERT INTO exp.refresh_tokens VALUES ($1,$2,'rest',now(),now()+interval '30 days')`, [
    sha(t),
    id,
  ]);
  chains.push(t);
}
const SQL = `WITH claimed AS (
         UPDATE refresh_tokens rt SET rotated_at = $4, successor_hash = $3
         FROM sessions s
         WHERE rt.token_hash = $1 AND rt.client_id = $2 AND rt.rotated_at IS NULL AND rt.expires_at > $4
           AND s.id = rt.session_id AND s.revoked_at IS NULL
         RETURNING rt.session_id, s.user_id, s.scope
       ), successor AS (
         INSERT INTO refresh_tokens (token_hash, session_id, client_id, issued_at, expires_at)
         SELECT $3, session_id, $2, $4, $5 FROM claimed
       ), touched AS (
         UPDATE sessions SET last_used_at = $4
         WHERE id IN (SELECT session_id FROM claimed) AND last_used_at < $4::timestamptz - interval '60 seconds'
       )
       SELECT session_id, user_id, scope FROM claimed`;
const pool = new pg.Pool({
  connectionString: 'postgres://postgres@127.0.0.1/root',
  max: 20,
  options: '-c search_path=exp',
});
const cpu = async () =>
  (await admin.query(`select 1`)) &&
  readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .reduce((s, p) => {
      try {
        const st = readFileSync(`/proc/${p}/stat`, 'utf8');
        if (!st.includes('(postgres)')) return s;
        const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
        return s + Number(f[11]) + Number(f[12]);
      } catch {
        return s;
      }
    }, 0);
const run = async (secs: number) => {
  let n = 0;
  const end = Date.now() + secs * 1000;
  await Promise.all(
    chains.map(async (_, i) => {
      while (Date.now() < end) {
        const t = chains[i];
        const succ = randomBytes(32).toString('base64url');
        const now = new Date();
        const r = await pool.query({
          name: 'rot',
          text: SQL,
          values: [sha(t), 'rest', sha(succ), now, new Date(now.getTime() + 30 * 86400e3)],
        });
        if (r.rows.length !== 1) throw new Error('no rotate');
        chains[i] = succ;
        n++;
      }
    }),
  );
  return n;
};
await run(2);
const c0 = await cpu();
const t0 = Date.now();
const u0 = process.cpuUsage();
const n = await run(6);
const c1 = await cpu();
const dt = (Date.now() - t0) / 1000;
const u = process.cpuUsage(u0);
console.log(
  variant,
  'tps',
  (n / dt).toFixed(0),
  'pg cpu us/tx',
  (((c1 - c0) * 10000) / n).toFixed(0),
  'node cpu us/tx',
  ((u.user + u.system) / n).toFixed(0),
);
await pool.end();
await admin.query('DROP SCHEMA exp CASCADE');
await admin.end();
