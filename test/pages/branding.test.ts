import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { AA_CONTRAST, accentColours, contrast } from '../../src/http/pages/accent.ts';
import { imageFetcher } from '../../src/providers/outbound-get.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import {
  ADMIN_TOKEN,
  adminRequest,
  authorizationParams,
  authorizeUrl,
  pkce,
  postSignIn,
  REDIRECT,
  signInForm,
} from '../helpers/oauth.ts';

// A client's brand on its pages (RFC 7591's logo_uri, client_uri, policy_uri, tos_uri, and brand_color), and
// the instance's (BRAND_NAME, BRAND_LOGO_URL, BRAND_COLOR): logos fetched once under the webhook URL rules,
// re-encoded and served from here; colours adjusted until they read well.

/** A site that serves what each path is given, and counts what it was asked. */
async function imageSite(answers: Record<string, (res: import('node:http').ServerResponse) => void>) {
  const asked: string[] = [];
  const server: Server = createServer((req, res) => {
    asked.push(String(req.url));
    const answer = answers[String(req.url)];
    if (answer) answer(res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, asked, close: () => new Promise((r) => server.close(r)) };
}

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 60 } } })
    .png()
    .withMetadata({ exif: { IFD0: { Copyright: 'secret-location' } } })
    .toBuffer();

describe('branding', () => {
  let t: TestApp;
  let site: Awaited<ReturnType<typeof imageSite>>;
  let env: Record<string, string>;

  before(async () => {
    const logo = await png(640, 320);
    site = await imageSite({
      '/logo.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(logo),
      '/moved.png': (res) => res.writeHead(302, { location: '/logo.png' }).end(),
      '/logo.svg': (res) =>
        res
          .writeHead(200, { 'content-type': 'image/svg+xml' })
          .end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      '/huge.png': (res) =>
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(2 * 1024 * 1024)),
      '/brand.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).end(logo),
      // answers the headers, then never the body
      '/slow.png': (res) => res.writeHead(200, { 'content-type': 'image/png' }).write(Buffer.alloc(10)),
    });
    env = {
      ADMIN_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      BRAND_NAME: 'Kopi Bank',
      BRAND_COLOR: '#00C853',
      BRAND_LOGO_URL: `${site.base}/brand.png`,
    };
    t = await createTestApp({ env });
  });
  after(async () => {
    await t?.close();
    await site?.close();
  });

  const register = (extra: Record<string, unknown>) =>
    adminRequest(t, 'POST', '/clients', { client_name: 'Duka', redirect_uris: [REDIRECT], ...extra });
  const signInPage = (clientId: string) =>
    t.request('GET', authorizeUrl(authorizationParams(clientId, pkce().challenge)));

  test('a client’s logo is fetched once, re-encoded, and served from here with its name, site, policy and terms', async () => {
    const res = await register({
      logo_uri: `${site.base}/logo.png`,
      client_uri: 'https://duka.example/',
      policy_uri: 'https://duka.example/privacy',
      tos_uri: 'https://duka.example/terms',
      brand_color: '#FFEB3B',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.brand_color, '#ffeb3b');
    assert.equal(res.body.policy_uri, 'https://duka.example/privacy');
    assert.equal(site.asked.filter((p) => p === '/logo.png').length, 1);

    const page = await signInPage(res.body.client_id);
    const html = String(page.body);
    const src = /<img src="(\/assets\/logos\/[A-Za-z0-9_-]{22}\.webp)" alt="" width="48" height="48">/.exec(
      html,
    )?.[1];
    assert.ok(src, 'the logo, from this service');
    assert.match(
      html,
      /<a href="https:\/\/duka.example\/" rel="noopener noreferrer" target="_blank"><strong>Duka<\/strong><\/a>/,
    );
    assert.match(html, /<a href="https:\/\/duka.example\/privacy"[^>]*>Privacy policy<\/a>/);
    assert.match(html, /<a href="https:\/\/duka.example\/terms"[^>]*>Terms of service<\/a>/);
    assert.match(html, /<link rel="stylesheet" href="\/assets\/accent\/ffeb3b.css">/);
    assert.match(String(page.headers['content-security-policy']), /img-src 'self';/);

    const image = await t.app.inject({ method: 'GET', url: String(src) });
    assert.equal(image.headers['content-type'], 'image/webp');
    assert.match(String(image.headers['cache-control']), /immutable/);
    const meta = await sharp(image.rawPayload).metadata();
    assert.equal(meta.format, 'webp');
    assert.deepEqual([meta.width, meta.height], [192, 96], 'fitted within 192 px, not cropped');
    assert.equal(meta.exif, undefined, 'nothing but the pixels');

    // The same address again is not fetched again; removing it removes the logo (and the policy's images).
    await adminRequest(t, 'PATCH', `/clients/${res.body.client_id}`, { logo_uri: `${site.base}/logo.png` });
    assert.equal(site.asked.filter((p) => p === '/logo.png').length, 1);
    await adminRequest(t, 'PATCH', `/clients/${res.body.client_id}`, { logo_uri: null });
    const plain = await signInPage(res.body.client_id);
    assert.doesNotMatch(String(plain.body), /<img /);
    assert.doesNotMatch(String(plain.headers['content-security-policy']), /img-src/);
  });

  test('the consent page shows the client’s logo, name, policy and terms too', async () => {
    const res = await register({
      logo_uri: `${site.base}/logo.png`,
      policy_uri: 'https://duka.example/privacy',
      tos_uri: 'https://duka.example/terms',
    });
    const s = await signUp(t);
    const { state, csrf } = await signInForm(t, authorizationParams(res.body.client_id, pkce().challenge));
    const consent = await postSignIn(t, { state, csrf }, s);
    const html = String(consent.body);
    assert.match(html, /<h1>Allow access\?<\/h1>/);
    assert.match(
      html,
      /<div class="brand"><img src="\/assets\/logos\/[A-Za-z0-9_-]{22}\.webp"[^>]*><strong>Duka<\/strong><\/div>/,
    );
    assert.match(html, /<a href="https:\/\/duka.example\/privacy"[^>]*>Privacy policy<\/a>/);
    assert.match(html, /<a href="https:\/\/duka.example\/terms"[^>]*>Terms of service<\/a>/);
    assert.match(String(consent.headers['content-security-policy']), /img-src 'self';/);
  });

  test('a logo that is not a JPEG, PNG or WebP, too large, moved or not allowed is refused, naming the field', async () => {
    for (const [path, why] of [
      ['/logo.svg', /not a JPEG, PNG or WebP image/],
      ['/huge.png', /larger than 1048576 bytes/],
      ['/moved.png', /302 \(redirects are not followed\)/],
      ['/missing.png', /answered 404/],
    ] as const) {
      const res = await register({ logo_uri: `${site.base}${path}` });
      assert.equal(res.status, 400, path);
      assert.match(res.body.error_description, why, path);
      assert.match(res.body.error_description, /\(logo_uri\)$/, path);
    }
    for (const [field, value] of [
      ['logo_uri', 'file:///etc/passwd'],
      ['logo_uri', 'http://169.254.169.254/latest/meta-data'],
      ['policy_uri', 'javascript:alert(1)'],
      ['brand_color', 'red'],
    ]) {
      const res = await register({ [field]: value });
      assert.equal(res.status, 400, value);
      assert.match(res.body.error_description, new RegExp(`\\(${field}\\)$`), value);
    }
  });

  test('a logo server that does not finish its answer in time is given up on', async () => {
    const fetch = imageFetcher({ allowPrivateNetworks: true, timeoutMs: 50 });
    assert.deepEqual(await fetch(`${site.base}/slow.png`), { refused: 'no answer within 50 ms' });
  });

  test('a BRAND_LOGO_URL that cannot be fetched is logged, and the pages show the name alone', async () => {
    const other = await createTestApp({ env: { ...env, BRAND_LOGO_URL: `${site.base}/missing-brand.png` } });
    try {
      const s = await signUp(other);
      const verify = await other.request('POST', '/kyc/initiate', { token: s.access_token });
      const html = String(
        (await other.request('GET', new URL(verify.body.data.verification_url).pathname)).body,
      );
      assert.match(html, /<div class="brand"><strong>Kopi Bank<\/strong><\/div>/);
      assert.ok(other.logs.some((line) => line.includes('BRAND_LOGO_URL could not be fetched')));
    } finally {
      await other.close();
    }
  });

  test('without WEBHOOK_ALLOW_PRIVATE_NETWORKS, a logo on a private address or over http is refused', async () => {
    const strict = await createTestApp({ env: { ADMIN_TOKEN } });
    try {
      for (const uri of [
        `${site.base}/logo.png`,
        'https://127.0.0.1/logo.png',
        'https://localhost/logo.png',
      ]) {
        const res = await adminRequest(strict, 'POST', '/clients', {
          client_name: 'Duka',
          redirect_uris: [REDIRECT],
          logo_uri: uri,
        });
        assert.equal(res.status, 400, uri);
        assert.match(res.body.error_description, /\(logo_uri\)$/, uri);
      }
    } finally {
      await strict.close();
    }
  });

  test('a brand colour that reads badly is adjusted to WCAG AA in light and dark; one that reads well is kept', () => {
    for (const hex of ['#ffeb3b', '#00c853', '#0000ff', '#1d4ed8', '#ffffff', '#000000', '#777777']) {
      const { light, dark } = accentColours(hex);
      assert.ok(contrast(light, '#ffffff') >= AA_CONTRAST, `${hex} light: ${light}`);
      assert.ok(contrast(dark, '#1a1d23') >= AA_CONTRAST, `${hex} dark on the card: ${dark}`);
      assert.ok(contrast(dark, '#0b1220') >= AA_CONTRAST, `${hex} dark under its text: ${dark}`);
    }
    assert.ok(contrast('#ffeb3b', '#ffffff') < AA_CONTRAST, 'the yellow alone would be unreadable');
    assert.equal(accentColours('#1d4ed8').light, '#1d4ed8', 'a readable colour is shown as it is');
  });

  test('the accent stylesheet carries the adjusted colours', async () => {
    const css = await t.request('GET', '/assets/accent/ffeb3b.css');
    assert.equal(css.status, 200);
    const { light, dark } = accentColours('#ffeb3b');
    assert.equal(
      String(css.body),
      `:root{--accent:${light};--focus:${light}}\n@media (prefers-color-scheme:dark){:root{--accent:${dark};--focus:${dark}}}\n`,
    );
    assert.equal((await t.request('GET', '/assets/accent/nothex.css')).status, 400);
  });

  test('pages of no client show the instance’s brand, its logo fetched once for every instance', async () => {
    const s = await signUp(t);
    const path = new URL(
      (await t.request('POST', '/kyc/initiate', { token: s.access_token })).body.data.verification_url,
    ).pathname;
    const html = String((await t.request('GET', path)).body);
    assert.match(
      html,
      /<div class="brand"><img src="\/assets\/logos\/[A-Za-z0-9_-]{22}\.webp" alt="" width="48" height="48"><strong>Kopi Bank<\/strong><\/div>/,
    );
    assert.match(html, /href="\/assets\/accent\/00c853.css"/);
    const second = await createTestApp({ shareWith: t, env });
    try {
      const again = String((await second.request('GET', path)).body);
      assert.match(again, /Kopi Bank/);
      assert.equal(site.asked.filter((p) => p === '/brand.png').length, 1, 'fetched once');
    } finally {
      await second.close();
    }
  });
});
