import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createTestApp, events, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { brokenImageData, pixelBomb } from '../helpers/images.ts';
import { ADMIN_TOKEN, accessTokenFor, registerClient } from '../helpers/oauth.ts';

/** A multipart body as a browser would send it. */
async function multipart(name: string, filename: string, type: string, data: Buffer) {
  const form = new FormData();
  form.append(name, new Blob([new Uint8Array(data)], { type }), filename);
  const r = new Response(form);
  return { body: Buffer.from(await r.arrayBuffer()), contentType: r.headers.get('content-type') as string };
}

const image = (format: 'jpeg' | 'png' | 'webp', size: number) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    [format]()
    .toBuffer();

describe('avatars on /api/v1', () => {
  let t: TestApp;
  let user: SignedUp;
  let token: string;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
    user = await signUp(t);
    const client = await registerClient(t, {
      token_endpoint_auth_method: 'none',
      scope: 'openid profile profile:write account:delete',
    });
    token = await accessTokenFor(t, client.client_id, user, 'openid profile profile:write account:delete');
  });
  after(() => t.close());

  const upload = async (filename: string, type: string, data: Buffer, field = 'file', bearer = token) => {
    const { body, contentType } = await multipart(field, filename, type, data);
    return t.request('POST', '/api/v1/users/me/avatar', {
      token: bearer,
      body,
      headers: { 'content-type': contentType },
    });
  };
  const stored = async () =>
    (await t.c.db.query('SELECT 1 FROM avatars WHERE user_id = $1', [user.user.id])).length;

  test('JPEG, PNG and WebP, above and below 256x256, become 512x512 and 128x128 WebP served for good', async () => {
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      for (const size of [100, 800]) {
        const res = await upload(`me.${format}`, `image/${format}`, await image(format, size));
        assert.equal(res.status, 200, `${format} ${size}`);
        const url = new URL(res.body.avatar_url);
        assert.equal(url.origin, 'http://callsign.test');
        const served = await t.app.inject({ method: 'GET', url: url.pathname });
        assert.equal(served.statusCode, 200);
        assert.equal(served.headers['content-type'], 'image/webp');
        assert.match(String(served.headers['cache-control']), /max-age=31536000, immutable/);
        const meta = await sharp(served.rawPayload).metadata();
        assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 512, 512]);
        const small = await t.app.inject({ method: 'GET', url: url.pathname.replace('.webp', '-128.webp') });
        assert.equal((await sharp(small.rawPayload).metadata()).width, 128);
      }
    }
    const rest = await t.request('GET', '/users/me', { token: user.access_token });
    const me = await t.request('GET', '/api/v1/users/me', { token });
    const info = await t.request('GET', '/oauth/userinfo', { token });
    assert.equal(rest.body.data.avatar_url, me.body.avatar_url, 'the REST avatar_url is the same URL');
    assert.equal(info.body.picture, me.body.avatar_url, 'and so is the picture claim');
    const ev = (await events(t, 'user.updated')).filter(
      (e) => (e.data.user as { id: string }).id === user.user.id,
    );
    assert.deepEqual(ev.at(-1)?.data.changed_fields, ['avatar_url']);
  });

  test('EXIF is stripped', async () => {
    const withExif = await sharp(await image('jpeg', 300))
      .withExif({ IFD0: { Copyright: 'SECRET-LOCATION' } })
      .jpeg()
      .toBuffer();
    assert.ok(withExif.includes(Buffer.from('SECRET-LOCATION')));
    const res = await upload('me.jpg', 'image/jpeg', withExif);
    const served = await t.app.inject({ method: 'GET', url: new URL(res.body.avatar_url).pathname });
    assert.ok(!served.rawPayload.includes(Buffer.from('SECRET-LOCATION')));
    assert.equal((await sharp(served.rawPayload).metadata()).exif, undefined);
  });

  test('EXIF orientation is applied before the metadata is dropped', async () => {
    // Stored: left half red, right half blue. Orientation 6 means "turn 90° clockwise to show": red on top.
    const sideways = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#0000ff' } })
      .composite([
        {
          input: { create: { width: 200, height: 400, channels: 3, background: '#ff0000' } },
          left: 0,
          top: 0,
        },
      ])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const res = await upload('me.jpg', 'image/jpeg', sideways);
    assert.equal(res.status, 200);
    const served = await t.app.inject({ method: 'GET', url: new URL(res.body.avatar_url).pathname });
    const { data, info } = await sharp(served.rawPayload).raw().toBuffer({ resolveWithObject: true });
    const red = (x: number, y: number) => data[(y * info.width + x) * info.channels] > 200;
    assert.ok(red(256, 60) && red(400, 60), 'the top is red');
    assert.ok(!red(256, 450) && !red(100, 450), 'the bottom is blue');
    assert.equal((await sharp(served.rawPayload).metadata()).orientation, undefined);
  });

  test('refused files answer as the API documents and store nothing', async () => {
    await t.request('DELETE', '/api/v1/users/me/avatar', { token });
    const cases: Array<[string, Promise<{ status: number; body: { error: string } }>, number, string]> = [
      [
        '5 MiB + 1 byte',
        upload(
          'big.png',
          'image/png',
          Buffer.concat([await image('png', 10), randomBytes(5 * 1024 * 1024 + 1)]),
        ),
        413,
        'file_too_large',
      ],
      [
        'a 20000x20000 pixel bomb',
        upload('bomb.png', 'image/png', await pixelBomb(20000, 20000)),
        413,
        'file_too_large',
      ],
      [
        'HTML named avatar.png',
        upload('avatar.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>')),
        415,
        'invalid_file_type',
      ],
      [
        'a GIF',
        upload(
          'a.gif',
          'image/gif',
          await sharp(await image('png', 20))
            .gif()
            .toBuffer(),
        ),
        415,
        'invalid_file_type',
      ],
      [
        'a PNG whose header reads well and whose image data does not decode',
        upload('broken.png', 'image/png', await brokenImageData()),
        415,
        'invalid_file_type',
      ],
      [
        'another field name',
        upload('me.png', 'image/png', await image('png', 20), 'avatar'),
        400,
        'invalid_request',
      ],
    ];
    for (const [what, pending, status, error] of cases) {
      const res = await pending;
      assert.equal(res.status, status, what);
      assert.equal(res.body.error, error, what);
    }
    assert.equal(await stored(), 0);
    assert.equal((await t.request('GET', '/api/v1/users/me', { token })).body.avatar_url, null);
  });

  test('a PNG declared as JPEG is recognised by its content and accepted', async () => {
    const res = await upload('photo.jpg', 'image/jpeg', await image('png', 300));
    assert.equal(res.status, 200);
  });

  test('two accounts with the same picture each own theirs: one removing it leaves the other', async () => {
    const client = await registerClient(t, {
      token_endpoint_auth_method: 'none',
      scope: 'openid profile profile:write account:delete',
    });
    const other = await signUp(t);
    const otherToken = await accessTokenFor(t, client.client_id, other, 'openid profile profile:write');
    const picture = await image('png', 300);
    const mine = (await upload('me.png', 'image/png', picture)).body.avatar_url;
    const theirs = (await upload('me.png', 'image/png', picture, 'file', otherToken)).body.avatar_url;
    assert.notEqual(theirs, mine);
    assert.equal((await t.request('DELETE', '/api/v1/users/me/avatar', { token })).status, 204);
    assert.equal((await t.app.inject({ method: 'GET', url: new URL(theirs).pathname })).statusCode, 200);
  });

  test('an upload that fails while the profile is written leaves the previous picture in place', async () => {
    const before = (await upload('me.png', 'image/png', await image('png', 300))).body.avatar_url;
    // A real failure inside the database, after the images are written: the profile update is refused.
    await t.c.db.exec(`
      CREATE FUNCTION refuse_avatar_change() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
      CREATE TRIGGER refuse_avatar_change BEFORE UPDATE OF avatar_url ON users
        FOR EACH ROW EXECUTE FUNCTION refuse_avatar_change();`);
    try {
      const another = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#123456' } })
        .png()
        .toBuffer();
      const failed = await upload('new.png', 'image/png', another);
      assert.equal(failed.status, 500);
    } finally {
      await t.c.db.exec('DROP TRIGGER refuse_avatar_change ON users; DROP FUNCTION refuse_avatar_change();');
    }
    assert.equal((await t.request('GET', '/api/v1/users/me', { token })).body.avatar_url, before);
    assert.equal((await t.app.inject({ method: 'GET', url: new URL(before).pathname })).statusCode, 200);
  });

  test('DELETE removes the picture: 204, avatar_url null, images gone', async () => {
    const { avatar_url } = (await upload('me.png', 'image/png', await image('png', 300))).body;
    const res = await t.request('DELETE', '/api/v1/users/me/avatar', { token });
    assert.equal(res.status, 204);
    assert.equal((await t.request('GET', '/api/v1/users/me', { token })).body.avatar_url, null);
    assert.equal((await t.app.inject({ method: 'GET', url: new URL(avatar_url).pathname })).statusCode, 404);
    assert.equal(await stored(), 0);
  });
});
