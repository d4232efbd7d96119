import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { events, signUp, unrevokedSessions } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { type ListeningApp, listeningApp } from '../helpers/client-app.ts';

// Two tabs of one web app on its own origin, each with @callsign/client on localStorage, in Chromium: they
// refresh one at a time and learn each other's tokens, so a rotating refresh token is never presented twice
// (which would end the session as reuse). Once with Web Locks and BroadcastChannel, once without either (the
// lease in localStorage and the storage event).

/** Past an access token's 15 minutes on the server's clock. */
const ACCESS_TOKEN_LIFE_PLUS = 16 * 60;
/** Past the 10 s in which a refresh token's predecessor may be presented again. */
const REUSE_GRACE_PLUS = 11;
const ROUNDS = 20;

const LIBRARY = readFileSync(fileURLToPath(import.meta.resolve('@callsign/client')), 'utf8');

/** The app's own origin: a page that makes a client of the API, counting its refreshes, and the library. */
function appServer(apiUrl: () => string): Server {
  const page = `<!doctype html><html><head><title>app</title></head><body><script type="module">
    import { createClient } from './client.js';
    window.refreshes = 0;
    const counted = (input, init) => {
      if (new URL(input).pathname === '/auth/refresh') window.refreshes++;
      return fetch(input, init);
    };
    window.client = createClient({ baseUrl: ${JSON.stringify('API')}.replace('API', location.hash.slice(1)), fetch: counted });
    window.ready = true;
  </script></body></html>`;
  return createServer((req, res) => {
    if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(LIBRARY);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(page.replace('API', apiUrl()));
  });
}

for (const variant of ['with Web Locks and BroadcastChannel', 'without them'] as const) {
  describe(`@callsign/client in two tabs, ${variant}`, () => {
    let s: ListeningApp;
    let site: Server;
    let origin: string;
    let browser: Browser;
    before(async () => {
      site = appServer(() => s.baseUrl);
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      s = await listeningApp({ CORS_ORIGINS: origin });
      browser = await launchBrowser();
    });
    after(async () => {
      await browser?.close();
      await s?.t.close();
      site?.close();
    });

    async function tabs(): Promise<[Page, Page]> {
      const context = await browser.newContext();
      if (variant === 'without them')
        await context.addInitScript(() => {
          Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined });
          Reflect.deleteProperty(window, 'BroadcastChannel');
        });
      const open = async () => {
        const page = await context.newPage();
        await page.goto(`${origin}/#${s.baseUrl}`);
        await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
        return page;
      };
      return [await open(), await open()];
    }

    // The page's own globals, as the tab's script set them.
    type Tab = { client: import('@callsign/client').CallsignClient; refreshes: number };
    const me = (page: Page) =>
      page.evaluate(() => (window as unknown as Tab).client.users.me().then((u) => u.id));
    const refreshToken = (page: Page) =>
      page.evaluate(() => (window as unknown as Tab).client.auth.getSession().then((x) => x?.refreshToken));
    const refreshes = (page: Page) => page.evaluate(() => (window as unknown as Tab).refreshes);

    test('both with an expired token call the API at once, 20 times: one refresh a round, never reuse', async () => {
      const user = await signUp(s.t);
      const [first, second] = await tabs();
      await first.evaluate(
        ({ phone, pin }) => (window as unknown as Tab).client.auth.signIn({ phone, pin }),
        { phone: user.phone, pin: user.pin },
      );
      assert.equal(await me(second), user.user.id, 'the second tab has the session the first signed in');
      for (let round = 0; round < ROUNDS; round++) {
        s.t.clock.advance(ACCESS_TOKEN_LIFE_PLUS);
        assert.deepEqual(await Promise.all([me(first), me(second)]), [user.user.id, user.user.id]);
      }
      const total = (await refreshes(first)) + (await refreshes(second));
      if (variant === 'without them')
        // A lease in localStorage is only as quick as the browser shows one tab another's writes: a second
        // refresh may slip through now and then, always within the server's grace (no reuse, checked below).
        assert.ok(total >= ROUNDS && total < 2 * ROUNDS, `${total} refreshes in ${ROUNDS} rounds`);
      else assert.equal(total, ROUNDS, 'one refresh a round');
      assert.equal(await refreshToken(first), await refreshToken(second));
      assert.equal(await unrevokedSessions(s.t, user.user.id), 2, 'the REST sign-up’s and the tabs’');
      assert.deepEqual(await events(s.t, 'session.revoked'), []);
    });

    test('a tab that refreshes after the other did, past the reuse grace, uses the other tab’s new token', async () => {
      const user = await signUp(s.t);
      const [first, second] = await tabs();
      await first.evaluate(
        ({ phone, pin }) => (window as unknown as Tab).client.auth.signIn({ phone, pin }),
        { phone: user.phone, pin: user.pin },
      );
      assert.equal(await me(second), user.user.id);
      s.t.clock.advance(ACCESS_TOKEN_LIFE_PLUS);
      assert.equal(await me(first), user.user.id);
      s.t.clock.advance(REUSE_GRACE_PLUS);
      assert.equal(await me(second), user.user.id);
      assert.equal(await refreshes(second), 0, 'the second tab presented no refresh token of its own');
      assert.equal(await refreshToken(first), await refreshToken(second));
      assert.equal(await unrevokedSessions(s.t, user.user.id), 2);
    });
  });
}
