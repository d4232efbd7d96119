import { createHash, randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Ask, type Chain, type Ledger, PIN, type Reply } from './traffic.ts';

// The load's OAuth client: a first-party app whose user signs in once on the hosted page (single sign-on), then
// authorizes again and again without a page, exchanges each code, and refreshes the chains it holds. One code
// in four is presented a second time: the second must be refused, and the chain it began is revoked with it.

export const OAUTH_REDIRECT = 'http://127.0.0.1:9/callback';

type Call = (what: string, path: string, ask?: Ask) => Promise<Reply>;
type Refresh = (chain: Chain) => Promise<number>;

const cookieOf = (reply: Reply, name: string) =>
  new RegExp(`${name}=([^;]+)`).exec(reply.headers?.getSetCookie().join('; ') ?? '')?.[1];

export function oauthLane(call: Call, ledger: Ledger, clientId: string, refresh: Refresh) {
  return async (running: () => boolean) => {
    while (running() && ledger.accounts.length === 0) await sleep(200);
    if (!running()) return;
    const account = ledger.accounts[randomInt(ledger.accounts.length)];
    const verifier = randomBytes(32).toString('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: OAUTH_REDIRECT,
      scope: 'openid profile phone',
      state: 'ha',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const page = await call('authorize page', `/authorize?${query}`, { method: 'GET' });
    const csrf = cookieOf(page, 'callsign_csrf');
    const state = /name="state" value="([^"]+)"/.exec(page.text)?.[1];
    if (!csrf || !state) return;
    const signedIn = await call('hosted sign-in', '/authorize/signin', {
      form: { state, csrf, phone: account.phone, pin: PIN },
      cookie: `callsign_csrf=${csrf}`,
    });
    const sso = cookieOf(signedIn, 'callsign_sso');
    if (!sso) return;
    const cookie = `callsign_csrf=${csrf}; callsign_sso=${sso}`;
    const mine: Chain[] = [];
    while (running()) {
      if (mine.length >= 5 && randomInt(4) > 0) {
        await refresh(mine[randomInt(mine.length)]);
        continue;
      }
      const back = await call('authorize (single sign-on)', `/authorize?${query}`, { method: 'GET', cookie });
      const location = back.headers?.get('location');
      const code = location ? new URL(location).searchParams.get('code') : null;
      // No code where the answer is not a failure: the single sign-on is gone; the user signs in again.
      if (!code) {
        if (back.status > 0 && back.status < 500) return;
        continue;
      }
      const form = {
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        redirect_uri: OAUTH_REDIRECT,
        code_verifier: verifier,
      };
      const exchanged = await call('code exchange', '/oauth/token', { form });
      if (exchanged.status !== 200) continue;
      const tokens = JSON.parse(exchanged.text) as { refresh_token: string; access_token: string };
      if (randomInt(4) === 0) {
        if ((await call('code exchange again', '/oauth/token', { form })).status === 200)
          ledger.codesUsedTwice++;
        continue;
      }
      const chain: Chain = {
        kind: 'oauth',
        phone: account.phone,
        token: tokens.refresh_token,
        access: tokens.access_token,
        unsure: false,
      };
      mine.push(chain);
      ledger.chains.push(chain);
    }
  };
}
