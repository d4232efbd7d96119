import { createHash, randomBytes } from 'node:crypto';
import type { Client } from './load.ts';

const REDIRECT = 'http://127.0.0.1:9/callback';
/** A form body with `{}` where bench/wrk/loop.lua puts the code or token. */
const formWith = (fields: (value: string) => Record<string, string>) =>
  new URLSearchParams(fields('{}')).toString().replace('%7B%7D', '{}');

/**
 * The OAuth scenarios' steps: a first-party public client, one signed-in browser (its SSO cookie), then
 * "authorize + code exchange" (the exchange signs an access token and an ID token), the exchange alone on
 * codes minted ahead, and OAuth refresh chains (one signature each).
 */
export async function oauthSteps(
  http: Client,
  adminToken: string,
  user: { phone: string; pin: string },
  chains: number,
  clientExtra: Record<string, unknown> = {},
) {
  const created = await http.send(
    'POST',
    '/admin/v1/clients',
    JSON.stringify({
      client_name: 'bench',
      redirect_uris: [REDIRECT],
      scope: 'openid profile phone',
      first_party: true,
      token_endpoint_auth_method: 'none',
      ...clientExtra,
    }),
    { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
  );
  const clientId = JSON.parse(created.text).client_id as string;
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope: 'openid profile phone',
    state: 'bench',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const page = await http.send('GET', `/authorize?${query}`);
  const csrf = /callsign_csrf=([^;]+)/.exec(String(page.headers['set-cookie']))?.[1] as string;
  const state = /name="state" value="([^"]+)"/.exec(page.text)?.[1] as string;
  const signedIn = await http.form(
    '/authorize/signin',
    { state, csrf, ...user },
    { cookie: `callsign_csrf=${csrf}` },
  );
  const sso = /callsign_sso=([^;]+)/.exec(String(signedIn.headers['set-cookie']))?.[1];
  if (!sso) throw new Error(`hosted sign-in failed (${signedIn.status})`);
  const cookie = `callsign_csrf=${csrf}; callsign_sso=${sso}`;

  /** The signed-in browser's authorization: a code, with no page shown (single sign-on, first party). */
  const authorize = async () => {
    const back = await http.send('GET', `/authorize?${query}`, undefined, { cookie });
    return new URL(String(back.headers.location)).searchParams.get('code') ?? undefined;
  };
  const exchangeFields = (code: string) => ({
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  const refreshFields = (token: string) => ({
    grant_type: 'refresh_token',
    client_id: clientId,
    refresh_token: token,
  });
  const redeem = async (code: string, headers: Record<string, string> = {}) => {
    const r = await http.form('/oauth/token', exchangeFields(code), headers);
    return r.status === 200 ? (JSON.parse(r.text) as { refresh_token: string }) : undefined;
  };
  const exchange = async () => {
    const code = await authorize();
    return code ? redeem(code) : undefined;
  };

  const tokens: string[] = [];

  return {
    /** the token endpoint's forms, for a scenario that sends its own (with a DPoP proof) */
    refreshFields,
    redeem,
    /** The OAuth refresh chains, one per lane, started anew (a code exchange each). */
    async freshChains(): Promise<string[]> {
      const fresh: string[] = [];
      for (let i = 0; i < chains; i++) fresh.push((await exchange())?.refresh_token as string);
      tokens.splice(0, tokens.length, ...fresh);
      return tokens;
    },
    /** what bench/wrk/loop.lua sends: the browser's authorization, and the token endpoint's forms */
    wrk: {
      authorize: { path: `/authorize?${query}`, cookie },
      exchangeBody: formWith(exchangeFields),
      refreshBody: formWith(refreshFields),
    },
    codeStep: async () => (await exchange()) !== undefined,
    /** `n` codes minted ahead, `lanes` authorizations at a time; each lives 60 s. */
    async mintCodes(n: number, lanes: number): Promise<string[]> {
      const codes: string[] = [];
      await Promise.all(
        Array.from({ length: lanes }, async () => {
          while (codes.length < n) {
            const code = await authorize();
            if (!code) throw new Error('authorization gave no code');
            codes.push(code);
          }
        }),
      );
      return codes;
    },
    /** The token endpoint alone, on a code of the pool; false when the pool has run dry. */
    exchangeStep: (pool: string[]) => async () => {
      const code = pool.pop();
      return code !== undefined && (await redeem(code)) !== undefined;
    },
    refreshStep: async (lane: number) => {
      const r = await http.form('/oauth/token', refreshFields(tokens[lane]));
      if (r.status !== 200) return false;
      tokens[lane] = JSON.parse(r.text).refresh_token;
      return true;
    },
  };
}
