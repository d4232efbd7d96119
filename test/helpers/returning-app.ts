import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from './app.ts';
import { ADMIN_TOKEN, pkce } from './oauth.ts';

// The app a browser journey starts from and returns to: a server on 127.0.0.1 that answers "back" at its
// callback, registered with the service as a first-party client; and the authorization URL that starts there.

export interface ReturningApp {
  callback: string;
  clientId: string;
  /** the hosted pages' start for this app, in `lang` */
  authorizeUrl(base: string, lang: string, state?: string): string;
  close(): Promise<void>;
}

/** Registers the app with `t` (whose admin token is the tests' ADMIN_TOKEN). */
export async function returningApp(t: TestApp, name = 'Duka Online'): Promise<ReturningApp> {
  const app = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('back'));
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  const callback = `http://127.0.0.1:${(app.address() as AddressInfo).port}/callback`;
  const client = await t.request('POST', '/admin/v1/clients', {
    token: ADMIN_TOKEN,
    body: { client_name: name, redirect_uris: [callback], scope: 'openid phone', first_party: true },
  });
  const clientId: string = client.body.client_id;
  return {
    callback,
    clientId,
    authorizeUrl: (base, lang, state = 'journey') =>
      `${base}/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: callback,
        scope: 'openid phone',
        state,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        ui_locales: lang,
      })}`,
    close: () => new Promise<void>((r) => app.close(() => r())),
  };
}
