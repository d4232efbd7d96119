import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { PurposeKeys } from '../../src/domain/purpose-keys.ts';
import { KeyRing } from '../../src/domain/sessions/key-ring.ts';
import { ManualClock } from '../../src/providers/clock.ts';
import type { Database } from '../../src/storage/db.ts';
import { createTestApp, events, signUp, type TestApp } from '../helpers/app.ts';
import { freshDatabase, testSecrets } from '../helpers/database.ts';

describe('REST tokens: refresh rotation, logout, bearer auth', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const refresh = (refresh_token: unknown) => t.request('POST', '/auth/refresh', { body: { refresh_token } });
  const logout = (token: string, refresh_token: string) =>
    t.request('POST', '/auth/logout', { token, body: { refresh_token } });

  test('access tokens verify with jose against the JWKS endpoint: RS256, kid, iss, aud, exp, sid, jti, scope', async () => {
    const s = await signUp(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const jwks = createRemoteJWKSet(new URL(`http://127.0.0.1:${port}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(s.access_token, jwks, {
      issuer: 'http://callsign.test',
      audience: 'callsign',
      currentDate: t.clock.now(),
    });
    assert.equal(protectedHeader.alg, 'RS256');
    assert.equal(protectedHeader.typ, 'JWT');
    assert.equal(protectedHeader.kid, decodeProtectedHeader(s.access_token).kid);
    assert.equal(payload.sub, s.user.id);
    assert.equal(payload.scope, 'openid profile phone email kyc');
    assert.equal(typeof payload.sid, 'string');
    assert.equal(typeof payload.jti, 'string');
    assert.equal((payload.exp as number) - (payload.iat as number), 900);
    const keys = await (await fetch(`http://127.0.0.1:${port}/.well-known/jwks.json`)).json();
    assert.deepEqual(Object.keys(keys.keys[0]).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
    assert.equal(keys.keys[0].kty, 'RSA');
    assert.equal(keys.keys[0].use, 'sig');
  });

  test('JWKS answers with cache headers and never a private member', async () => {
    const res = await t.request('GET', '/.well-known/jwks.json');
    assert.match(String(res.headers['cache-control']), /max-age=\d+/);
    for (const k of res.body.keys)
      for (const p of ['d', 'p', 'q', 'dp', 'dq', 'qi']) assert.equal(k[p], undefined);
  });

  test('the private key is stored encrypted', async () => {
    const rows = await t.c.db.query<{ private_key_enc: string }>('SELECT private_key_enc FROM signing_keys');
    assert.ok(rows.length >= 1);
    for (const r of rows) {
      assert.match(r.private_key_enc, /^v1\./);
      assert.ok(!r.private_key_enc.includes('PRIVATE KEY'));
    }
  });

  test('a start with another KEY_ENCRYPTION_KEY stops with a message saying so', async () => {
    const other = new KeyRing(
      t.c.db,
      PurposeKeys.derive(randomBytes(32), undefined, 'signing-keys'),
      t.clock,
    );
    await assert.rejects(
      other.load(),
      /cannot be decrypted: KEY_ENCRYPTION_KEY is not the one it was stored with/,
    );
  });

  test('tokens of unknown kids arriving together make one reload of the keys, and none again within 5 s', async () => {
    let reads = 0;
    const db = t.c.db;
    const counting: Database = {
      ...db,
      kind: db.kind,
      query: (sql, params) => {
        if (sql.includes('FROM signing_keys')) reads++;
        return db.query(sql, params);
      },
      transaction: (fn) => db.transaction(fn),
    };
    const ring = new KeyRing(
      counting,
      PurposeKeys.derive(testSecrets.keyEncryptionKey, undefined, 'signing-keys'),
      t.clock,
    );
    await ring.load();
    const known = decodeProtectedHeader((await signUp(t)).access_token).kid;
    reads = 0;
    t.clock.advance(6);
    const found = await Promise.all(Array.from({ length: 20 }, (_, i) => ring.publicKey(`unknown-${i}`)));
    assert.deepEqual(found, Array(20).fill(undefined));
    assert.equal(reads, 1, 'one reload for all twenty');
    t.clock.advance(4);
    assert.equal(await ring.publicKey('unknown-again'), undefined);
    assert.equal(reads, 1, 'none within 5 s of the last');
    assert.ok(await ring.publicKey(known), 'a known kid needs no reload');
    assert.equal(reads, 1);
  });

  test('an instance whose clock is behind the one that made the first key starts and signs with it', async () => {
    const database = await freshDatabase();
    try {
      await database.db.query('DELETE FROM signing_keys'); // the PGlite template holds one
      const kek = PurposeKeys.derive(testSecrets.keyEncryptionKey, undefined, 'signing-keys');
      const first = new KeyRing(database.db, kek, new ManualClock(new Date('2026-11-25T12:00:05Z')));
      await first.load();
      const behind = new KeyRing(database.db, kek, new ManualClock(new Date('2026-11-25T12:00:00Z')));
      await behind.load();
      assert.equal(behind.signingKey().kid, first.signingKey().kid);
    } finally {
      await database.drop();
    }
  });

  test('refresh rotates: a new refresh token and access token; expires_in 900', async () => {
    const s = await signUp(t);
    const res = await refresh(s.refresh_token);
    assert.equal(res.status, 200);
    assert.notEqual(res.body.data.refresh_token, s.refresh_token);
    assert.equal(res.body.data.expires_in, 900);
    assert.equal((await refresh(res.body.data.refresh_token)).status, 200, 'the new one works');
  });

  test('a repeat within 10 s gets the same new refresh token back and a valid access token', async () => {
    const s = await signUp(t);
    const first = await refresh(s.refresh_token);
    t.clock.advance(10);
    const repeat = await refresh(s.refresh_token);
    assert.equal(repeat.status, 200);
    assert.equal(repeat.body.data.refresh_token, first.body.data.refresh_token);
    assert.equal(
      (await t.request('GET', '/nothing-here', { token: repeat.body.data.access_token })).status,
      404,
    );
    const me = await t.request('POST', '/auth/logout', {
      token: repeat.body.data.access_token,
      body: { refresh_token: 'x' },
    });
    assert.equal(me.body.error.code, 'INVALID_REFRESH_TOKEN', 'the access token itself was accepted');
  });

  test('a repeat after the grace window is reuse: the session is revoked and session.revoked written', async () => {
    const s = await signUp(t);
    const first = await refresh(s.refresh_token);
    t.clock.advance(11);
    const reuse = await refresh(s.refresh_token);
    assert.equal(reuse.status, 401);
    assert.equal(reuse.body.error.code, 'INVALID_REFRESH_TOKEN');
    const next = await refresh(first.body.data.refresh_token);
    assert.equal(next.body.error.code, 'INVALID_REFRESH_TOKEN', 'the whole family is dead');
    const ev = (await events(t, 'session.revoked')).filter((e) => e.data.user_id === s.user.id);
    assert.equal(ev.length, 1);
    assert.equal(ev[0].data.reason, 'refresh_token_reuse');
    const stale = await t.request('POST', '/auth/logout', {
      token: first.body.data.access_token,
      body: { refresh_token: 'x' },
    });
    assert.equal(stale.body.error.code, 'INVALID_TOKEN', 'D17: its access tokens die with it');
  });

  test('a repeat within the window after the new token was itself used is reuse', async () => {
    const s = await signUp(t);
    const first = await refresh(s.refresh_token);
    await refresh(first.body.data.refresh_token);
    assert.equal((await refresh(s.refresh_token)).body.error.code, 'INVALID_REFRESH_TOKEN');
  });

  test('race: one refresh token used 20 times at once rotates once; every answer carries the same new token', async () => {
    const s = await signUp(t);
    const answers = await Promise.all(Array.from({ length: 20 }, () => refresh(s.refresh_token)));
    assert.ok(
      answers.every((a) => a.status === 200),
      JSON.stringify(answers.map((a) => a.body.error?.code)),
    );
    assert.equal(new Set(answers.map((a) => a.body.data.refresh_token)).size, 1);
    const rows = await t.c.db.query<{ refresh_generation: number }>(
      'SELECT refresh_generation FROM sessions WHERE user_id = $1',
      [s.user.id],
    );
    assert.deepEqual(rows, [{ refresh_generation: 1 }], 'one session, rotated exactly once');
  });

  test('refresh tokens are stored hashed: the session keeps the SHA-256 of its live one only', async () => {
    const s = await signUp(t);
    const [row] = await t.c.db.query<Record<string, unknown>>('SELECT * FROM sessions WHERE user_id = $1', [
      s.user.id,
    ]);
    assert.equal(row.refresh_hash, createHash('sha256').update(s.refresh_token).digest('base64url'));
    const secret = s.refresh_token.split('.')[2];
    assert.ok(!JSON.stringify(row).includes(secret), 'the token itself is nowhere in the row');
  });

  test('a token naming a session but not issued by us (a bad tag) is plainly invalid and revokes nothing', async () => {
    const s = await signUp(t);
    const rotated = await refresh(s.refresh_token);
    t.clock.advance(11);
    // An earlier generation of this session, as anyone who read `sid` off an access token could write it.
    const [sid, generation, secret, tag] = s.refresh_token.split('.');
    const otherSecret = Buffer.alloc(32, 7).toString('base64url');
    for (const forged of [
      `${sid}.${generation}.${otherSecret}.${tag}`,
      `${sid}.${generation}.${secret}.${Buffer.alloc(16).toString('base64url')}`,
      `${sid}.${generation}.${secret}`,
      `${sid}.-1.${secret}.${tag}`,
    ]) {
      const res = await refresh(forged);
      assert.equal(res.body.error.code, 'INVALID_REFRESH_TOKEN', forged);
    }
    assert.equal((await refresh(rotated.body.data.refresh_token)).status, 200, 'the session lives on');
    const ev = (await events(t, 'session.revoked')).filter((e) => e.data.user_id === s.user.id);
    assert.equal(ev.length, 0);
  });

  test('a refresh token lives 30 days from issue, sliding with each rotation', async () => {
    const s = await signUp(t);
    t.clock.advance(29 * 86400);
    const rotated = await refresh(s.refresh_token);
    assert.equal(rotated.status, 200);
    t.clock.advance(29 * 86400);
    const again = await refresh(rotated.body.data.refresh_token);
    assert.equal(again.status, 200, 'slid with the rotation');
    t.clock.advance(30 * 86400 + 1);
    assert.equal((await refresh(again.body.data.refresh_token)).body.error.code, 'INVALID_REFRESH_TOKEN');
  });

  test('unknown or malformed refresh tokens are INVALID_REFRESH_TOKEN (401)', async () => {
    const res = await refresh('not-a-token');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'INVALID_REFRESH_TOKEN');
    assert.equal((await refresh(42)).body.error.code, 'INVALID_REQUEST');
  });

  test('logout revokes the session: {revoked: true}, session.revoked (logout), its tokens refused', async () => {
    const s = await signUp(t);
    const res = await logout(s.access_token, s.refresh_token);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { success: true, data: { revoked: true } });
    assert.equal((await refresh(s.refresh_token)).body.error.code, 'INVALID_REFRESH_TOKEN');
    const after = await logout(s.access_token, s.refresh_token);
    assert.equal(after.status, 401);
    assert.equal(after.body.error.code, 'INVALID_TOKEN');
    const ev = (await events(t, 'session.revoked')).filter((e) => e.data.user_id === s.user.id);
    assert.deepEqual(
      ev.map((e) => e.data.reason),
      ['logout'],
    );
  });

  test("logout needs a bearer token; another user's refresh token is INVALID_REFRESH_TOKEN", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const anonymous = await t.request('POST', '/auth/logout', { body: { refresh_token: a.refresh_token } });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error.code, 'INVALID_TOKEN');
    assert.match(String(anonymous.headers['www-authenticate']), /^Bearer/);
    const cross = await logout(a.access_token, b.refresh_token);
    assert.equal(cross.body.error.code, 'INVALID_REFRESH_TOKEN');
    assert.equal((await refresh(b.refresh_token)).status, 200, "b's session lives on");
  });

  test('an access token past 900 s is TOKEN_EXPIRED; a forged one is INVALID_TOKEN', async () => {
    const s = await signUp(t);
    const [h, p] = s.access_token.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), sub: 'x' }),
    ).toString('base64url');
    const forged = await logout(`${h}.${forgedPayload}.${s.access_token.split('.')[2]}`, s.refresh_token);
    assert.equal(forged.body.error.code, 'INVALID_TOKEN');
    assert.equal((await logout('garbage', s.refresh_token)).body.error.code, 'INVALID_TOKEN');
    t.clock.advance(901);
    const expired = await logout(s.access_token, s.refresh_token);
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error.code, 'TOKEN_EXPIRED');
  });
});
