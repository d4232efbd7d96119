import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KYC_URL_LIFETIME_SECONDS } from '../../src/domain/kyc/kyc-rules.ts';
import { usersRepo } from '../../src/storage/repositories/users.ts';
import { createTestApp, events, signUp, type TestApp } from '../helpers/app.ts';
import { meanwhileUncommitted } from '../helpers/database.ts';
import { pixelBomb } from '../helpers/images.ts';
import {
  ADULT_BIRTHDAY,
  documentPhoto,
  initiate,
  photo,
  selfiePhoto,
  submitForm,
  validFields,
} from '../helpers/kyc.ts';
import { ADMIN_TOKEN, adminRequest } from '../helpers/oauth.ts';

const VERIFY_URL = 'https://verify.callsign.test';

describe('identity verification: initiate, the hosted page, decisions', () => {
  let t: TestApp;
  before(async () => {
    // One test address posts every form here; the page's own limit has a test of its own below.
    t = await createTestApp({
      env: { ADMIN_TOKEN, VERIFY_URL, RATE_LIMITS: 'verify_page_address=100000/60' },
    });
  });
  after(() => t.close());
  const status = async (token: string) => (await t.request('GET', '/kyc/status', { token })).body.data;

  test('initiate answers a one-time URL on VERIFY_URL valid 1800 s; status starts at none', async () => {
    const s = await signUp(t);
    assert.deepEqual(await status(s.access_token), {
      status: 'none',
      verified_at: null,
      level: null,
      documents: [],
    });
    const res = await t.request('POST', '/kyc/initiate', { token: s.access_token });
    assert.equal(res.status, 200);
    assert.equal(res.body.data.expires_in, KYC_URL_LIFETIME_SECONDS);
    assert.match(
      res.body.data.verification_url,
      /^https:\/\/verify\.callsign\.test\/verify\/[A-Za-z0-9_-]{43}$/,
    );
    assert.equal((await t.request('POST', '/kyc/initiate')).body.error.code, 'INVALID_TOKEN');
    const page = await t.app.inject({ method: 'GET', url: new URL(res.body.data.verification_url).pathname });
    assert.equal(page.statusCode, 200);
    for (const label of ['Country', 'Date of birth', 'Document type', 'Document photo', 'Selfie'])
      assert.match(page.body, new RegExp(`<label for="[a-z_]+">${label}</label>`));
    assert.match(page.body, /<button type="submit">Submit<\/button>/);
    assert.match(page.body, /<option value="DE">Germany<\/option>/);
    assert.equal((page.body.match(/<option value="[A-Z]{2}"/g) ?? []).length, 249, 'ISO 3166-1 alpha-2');
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.match(String(page.headers['set-cookie']), /callsign_verify_csrf=.+HttpOnly/);
  });

  test('a submission stores encrypted photos, moves none -> pending and emits kyc.submitted; the link is then used', async () => {
    const s = await signUp(t);
    const path = await initiate(t, s.access_token);
    const doc = await documentPhoto('png');
    const res = await submitForm(t, path, validFields(), [doc, await selfiePhoto()]);
    assert.equal(res.status, 200, res.html);
    assert.match(res.html, /submitted and will be reviewed/);
    assert.equal((await status(s.access_token)).status, 'pending');
    assert.equal(
      (await t.request('GET', '/users/me', { token: s.access_token })).body.data.kyc_status,
      'pending',
    );
    const [submitted] = (await events(t, 'kyc.submitted')).filter((e) => e.data.user_id === s.user.id);
    assert.deepEqual(Object.keys(submitted.data).sort(), ['submitted_at', 'user_id', 'verification_id']);

    // Reused: a clear page, and nothing changes.
    const again = await submitForm(t, path, validFields(), [doc]);
    assert.equal(again.status, 410);
    assert.match(again.html, /already been used/);
    const look = await t.app.inject({ method: 'GET', url: path });
    assert.equal(look.statusCode, 410);
    assert.match(look.body, /already been used/);

    // The operator sees the data and the photos; at rest they are ciphertext.
    const queue = (await adminRequest(t, 'GET', '/kyc/verifications?status=pending')).body.data;
    const mine = queue.find((v: { user_id: string }) => v.user_id === s.user.id);
    assert.equal(mine.level, 'full');
    assert.deepEqual(mine.documents, ['passport', 'selfie']);
    const detail = (await adminRequest(t, 'GET', `/kyc/verifications/${mine.id}`)).body;
    assert.equal(detail.country, 'DE');
    assert.equal(detail.birthday, ADULT_BIRTHDAY);
    assert.equal(detail.user.phone, s.phone);
    assert.deepEqual(detail.photos.map((p: { kind: string }) => p.kind).sort(), ['document', 'selfie']);
    const docPhoto = detail.photos.find((p: { kind: string }) => p.kind === 'document');
    assert.equal(docPhoto.content_type, 'image/png');
    const served = await t.app.inject({
      method: 'GET',
      url: docPhoto.url,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.ok(served.rawPayload.equals(doc.data), 'the photo comes back byte for byte');
    assert.equal((await t.app.inject({ method: 'GET', url: docPhoto.url })).statusCode, 401);
    const rows = await t.c.db.query<{ data_enc: string }>(
      'SELECT data_enc FROM kyc_photos WHERE verification_id = $1',
      [mine.id],
    );
    for (const r of rows) {
      assert.ok(r.data_enc.startsWith('v1.'));
      assert.ok(!r.data_enc.includes(doc.data.subarray(0, 24).toString('base64url')));
    }
  });

  test('the link expires after 1800 s (clock) with a clear page', async () => {
    const s = await signUp(t);
    const path = await initiate(t, s.access_token);
    t.clock.advance(KYC_URL_LIFETIME_SECONDS - 1);
    assert.equal((await t.app.inject({ method: 'GET', url: path })).statusCode, 200);
    t.clock.advance(1);
    const late = await t.app.inject({ method: 'GET', url: path });
    assert.equal(late.statusCode, 410);
    assert.match(late.body, /has expired/);
    assert.doesNotMatch(late.body, /Error|stack|at /);
    const post = await submitForm(t, path, validFields(), [await documentPhoto()]);
    assert.equal(post.status, 410);
    const [user] = await t.c.db.query<{ kyc_status: string }>('SELECT kyc_status FROM users WHERE id = $1', [
      s.user.id,
    ]);
    assert.equal(user.kyc_status, 'none');
    const unknown = await t.app.inject({ method: 'GET', url: '/verify/not-a-real-token' });
    assert.equal(unknown.statusCode, 404);
    assert.match(unknown.body, /not valid/);
  });

  test('a newer link replaces the older unused one', async () => {
    const s = await signUp(t);
    const first = await initiate(t, s.access_token);
    // "No body" (spec): an empty body labelled JSON is no body, not malformed JSON.
    const labelled = await t.request('POST', '/kyc/initiate', {
      token: s.access_token,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(labelled.status, 200);
    const second = new URL(labelled.body.data.verification_url).pathname;
    assert.equal((await t.app.inject({ method: 'GET', url: first })).statusCode, 410);
    assert.equal((await t.app.inject({ method: 'GET', url: second })).statusCode, 200);
  });

  test('someone under 18 is refused on the page; the status stays and the link still works', async () => {
    const s = await signUp(t);
    const path = await initiate(t, s.access_token);
    const now = t.clock.now();
    const seventeen = `${now.getUTCFullYear() - 17}-01-01`;
    const res = await submitForm(t, path, validFields(seventeen), [await documentPhoto()]);
    assert.equal(res.status, 400);
    assert.match(res.html, /at least 18 years old/);
    assert.match(res.html, /role="alert"/);
    assert.equal((await status(s.access_token)).status, 'none');
    assert.equal((await events(t, 'kyc.submitted')).filter((e) => e.data.user_id === s.user.id).length, 0);
    // Eighteen today is old enough.
    const pad = (n: number) => String(n).padStart(2, '0');
    const eighteenToday = `${now.getUTCFullYear() - 18}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())}`;
    assert.equal(
      (await submitForm(t, path, validFields(eighteenToday), [await documentPhoto()])).status,
      200,
    );
  });

  test('bad fields and bad photos are refused on the page, naming the problem; nothing is stored', async () => {
    const s = await signUp(t);
    const path = await initiate(t, s.access_token);
    const doc = await documentPhoto();
    const cases: [Record<string, string>, Parameters<typeof submitForm>[3], RegExp][] = [
      [{ ...validFields(), country: 'XX' }, [doc], /Choose your country/],
      [{ ...validFields(), birthday: '1990-02-30' }, [doc], /YYYY-MM-DD/],
      [{ ...validFields(), birthday: '2999-01-01' }, [doc], /real date of birth/],
      [{ ...validFields(), document_kind: 'library_card' }, [doc], /type of your document/],
      [validFields(), [], /photo of your document/],
      [
        validFields(),
        [{ ...doc, data: Buffer.from('<html>not an image</html>'), filename: 'id.png' }],
        /JPEG, PNG or WebP/,
      ],
      [validFields(), [{ ...doc, data: await photo('gif'), type: 'image/jpeg' }], /JPEG, PNG or WebP/],
      [validFields(), [doc, doc, doc], /at most two document photos/],
      [
        validFields(),
        [{ ...doc, data: Buffer.concat([doc.data, Buffer.alloc(10 * 1024 * 1024 + 1 - doc.data.length)]) }],
        /at most 10 MB/,
      ],
      // P46: 60 megapixels at most (8000 x 7501 is just over), read from the header, never decoded.
      [validFields(), [{ ...doc, data: await pixelBomb(8000, 7501), type: 'image/png' }], /60 megapixels/],
      [validFields(), [doc, await selfiePhoto(), await selfiePhoto()], /one selfie/],
    ];
    for (const [fields, files, message] of cases) {
      const res = await submitForm(t, path, fields, files);
      assert.ok(res.status >= 400 && res.status < 500, `${message}: ${res.status}`);
      assert.match(res.html, message);
    }
    // P63: a cut-off multipart body, and a field carrying U+0000, are the form again, never a 500.
    const cut = await t.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\n\r\n',
    });
    assert.equal(cut.statusCode, 400);
    assert.match(cut.body, /could not be read/);
    const nul = await submitForm(t, path, { ...validFields(), country: 'U\u0000S' }, [doc]);
    assert.equal(nul.status, 400);
    assert.match(nul.html, /Choose your country/);
    const forged = await submitForm(t, path, validFields(), [doc], { csrf: false });
    assert.equal(forged.status, 400);
    assert.match(forged.html, /did not come from this page/);
    assert.equal((await status(s.access_token)).status, 'none');
    const [{ n }] = await t.c.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM kyc_photos p JOIN kyc_verifications v ON v.id = p.verification_id WHERE v.user_id = $1`,
      [s.user.id],
    );
    assert.equal(n, 0);
    assert.equal((await submitForm(t, path, validFields(), [doc])).status, 200, 'the link still works');
  });

  test("a deleted account's verification leaves the queue and is neither shown nor decided, also mid-deletion", async () => {
    const pendingOf = async (userId: string) =>
      (await adminRequest(t, 'GET', '/kyc/verifications?status=pending')).body.data.filter(
        (x: { user_id: string }) => x.user_id === userId,
      );
    const submitted = async () => {
      const s = await signUp(t);
      await submitForm(t, await initiate(t, s.access_token), validFields(), [await documentPhoto()]);
      const [v] = await pendingOf(s.user.id);
      const review = await adminRequest(t, 'GET', `/kyc/verifications/${v.id}`);
      return { s, v, photoUrl: `/kyc/verifications/${v.id}/photos/${review.body.photos[0].id}` };
    };

    const { s, v, photoUrl } = await submitted();
    assert.equal((await adminRequest(t, 'GET', photoUrl)).status, 200);
    const deleted = await t.request('DELETE', '/users/me', {
      token: s.access_token,
      body: { pin: s.pin, confirmation: 'DELETE MY ACCOUNT' },
    });
    assert.equal(deleted.status, 200);
    assert.deepEqual(await pendingOf(s.user.id), [], 'gone from the queue');
    for (const url of [`/kyc/verifications/${v.id}`, photoUrl])
      assert.equal((await adminRequest(t, 'GET', url)).status, 404, url);
    assert.equal((await adminRequest(t, 'POST', `/kyc/verifications/${v.id}/approve`)).status, 404);

    // Approved while the deletion is being written: the approval waits for it, then finds no account.
    const other = await submitted();
    const approving = await meanwhileUncommitted(
      t.c.db,
      async (tx) => {
        await usersRepo.markDeleted(tx, other.s.user.id, t.clock.now());
      },
      () => adminRequest(t, 'POST', `/kyc/verifications/${other.v.id}/approve`),
      '%UPDATE users SET kyc_status%',
    );
    assert.equal(approving.status, 404);
    const decided = (await events(t)).filter(
      (e) =>
        e.type.startsWith('kyc.') &&
        e.type !== 'kyc.submitted' &&
        [s.user.id, other.s.user.id].includes(e.data.user_id as string),
    );
    assert.deepEqual(decided, [], 'no kyc.verified after user.deleted');
  });

  test('manual approval: pending -> verified; both surfaces, the status record and the kyc claims show it', async () => {
    const s = await signUp(t);
    await submitForm(t, await initiate(t, s.access_token), { ...validFields(), country: 'FR' }, [
      await documentPhoto(),
    ]);
    const [v] = (await adminRequest(t, 'GET', '/kyc/verifications?status=pending')).body.data.filter(
      (x: { user_id: string }) => x.user_id === s.user.id,
    );
    const approved = await adminRequest(t, 'POST', `/kyc/verifications/${v.id}/approve`);
    assert.equal(approved.status, 200);
    assert.equal(approved.body.status, 'verified');

    const record = await status(s.access_token);
    assert.equal(record.status, 'verified');
    assert.equal(record.level, 'basic');
    assert.deepEqual(record.documents, ['passport']);
    assert.ok(!Number.isNaN(Date.parse(record.verified_at)));
    const me = (await t.request('GET', '/users/me', { token: s.access_token })).body.data;
    assert.equal(me.kyc_status, 'verified');
    assert.equal(me.kyc_country, 'FR');
    assert.equal(me.kyc_verified_at, record.verified_at);
    const apiMe = (await t.request('GET', '/api/v1/users/me', { token: s.access_token })).body;
    assert.equal(apiMe.kyc_status, 'VERIFIED');
    assert.equal(apiMe.kyc_country, 'FR');
    // The OAuth surface's user keeps the birthday (the spec's resource); GET /api/v1/users/me lists no such field.
    const [row] = await t.c.db.query<{ kyc_birthday: string }>(
      'SELECT kyc_birthday FROM users WHERE id = $1',
      [s.user.id],
    );
    assert.equal(row.kyc_birthday, ADULT_BIRTHDAY);
    const userinfo = (await t.request('GET', '/oauth/userinfo', { token: s.access_token })).body;
    assert.equal(userinfo.kyc_status, 'VERIFIED');
    assert.equal(userinfo.kyc_country, 'FR');

    const [verified] = (await events(t, 'kyc.verified')).filter((e) => e.data.user_id === s.user.id);
    assert.deepEqual(verified.data, {
      user_id: s.user.id,
      verification_id: v.id,
      verified_at: record.verified_at,
      country: 'FR',
      documents: ['passport'],
    });

    // D30: verified is final here: no new link, no second decision.
    const again = await t.request('POST', '/kyc/initiate', { token: s.access_token });
    assert.equal(again.status, 403);
    assert.equal(again.body.error.code, 'FORBIDDEN');
    const twice = await adminRequest(t, 'POST', `/kyc/verifications/${v.id}/reject`, { reason: 'other' });
    assert.equal(twice.status, 400);
    assert.match(twice.body.error_description, /only a pending verification/);
  });

  test('manual rejection: pending -> rejected with a reason; rejected -> pending on resubmission', async () => {
    const s = await signUp(t);
    const path = await initiate(t, s.access_token);
    await submitForm(t, path, validFields(), [await documentPhoto()]);
    // D30: no new link while a decision is awaited.
    const pending = await t.request('POST', '/kyc/initiate', { token: s.access_token });
    assert.equal(pending.status, 403);
    assert.equal(pending.body.error.code, 'FORBIDDEN');
    const [v] = (await adminRequest(t, 'GET', '/kyc/verifications?status=pending')).body.data.filter(
      (x: { user_id: string }) => x.user_id === s.user.id,
    );
    assert.equal(
      (await adminRequest(t, 'POST', `/kyc/verifications/${v.id}/reject`, { reason: 'blurry' })).status,
      400,
    );
    assert.equal((await adminRequest(t, 'POST', `/kyc/verifications/${v.id}/reject`, {})).status, 400);
    const rejected = await adminRequest(t, 'POST', `/kyc/verifications/${v.id}/reject`, {
      reason: 'document_expired',
      message: 'Your passport expired in 2020.',
    });
    assert.equal(rejected.status, 200);
    assert.equal((await status(s.access_token)).status, 'rejected');
    const [event] = (await events(t, 'kyc.rejected')).filter((e) => e.data.user_id === s.user.id);
    assert.deepEqual(Object.keys(event.data).sort(), [
      'message',
      'reason',
      'rejected_at',
      'user_id',
      'verification_id',
    ]);
    assert.equal(event.data.reason, 'document_expired');
    assert.equal(event.data.message, 'Your passport expired in 2020.');

    const retry = await submitForm(t, await initiate(t, s.access_token), validFields(), [
      await documentPhoto(),
    ]);
    assert.equal(retry.status, 200);
    assert.equal((await status(s.access_token)).status, 'pending');
    assert.equal(
      (await adminRequest(t, 'POST', '/kyc/verifications/00000000-0000-4000-8000-000000000000/approve'))
        .status,
      404,
    );
    assert.equal((await adminRequest(t, 'GET', '/kyc/verifications?status=awaiting')).status, 400);
  });

  test('the page counts posts and views per address (verify_page_address) and answers 429 past it', async () => {
    const strict = await createTestApp({ env: { VERIFY_URL, RATE_LIMITS: 'verify_page_address=3/60' } });
    try {
      const s = await signUp(strict);
      const path = await initiate(strict, s.access_token);
      const codes = [];
      for (let i = 0; i < 4; i++)
        codes.push((await strict.app.inject({ method: 'GET', url: path })).statusCode);
      assert.deepEqual(codes, [200, 200, 200, 429]);
      strict.clock.advance(60);
      assert.equal((await strict.app.inject({ method: 'GET', url: path })).statusCode, 200);
    } finally {
      await strict.close();
    }
  });
});
