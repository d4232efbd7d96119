import type { TestApp } from './app.ts';

/** A page of the operator's console, signed in with the admin token (its sign-in form's CSRF as a browser's). */
export async function consoleGet(t: TestApp, adminToken: string, path: string) {
  const form = await t.request('GET', '/console/signin');
  const csrf = /callsign_console_signin=([^;]+)/.exec(String(form.headers['set-cookie']))?.[1] ?? '';
  const signedIn = await t.request('POST', '/console/signin', {
    body: new URLSearchParams({ csrf, token: adminToken }).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: `callsign_console_signin=${csrf}`,
    },
  });
  const session = /callsign_console=([^;]+)/.exec(String(signedIn.headers['set-cookie']))?.[1] ?? '';
  return t.request('GET', path, { headers: { cookie: `callsign_console=${session}` } });
}
