import { createHash, randomBytes } from 'node:crypto';
import { type IncomingMessage, request, type ServerResponse } from 'node:http';
import { importJWK, type JWK, jwtVerify } from 'jose';
import { FakeNetworkVendor, type Incoming, send } from './fake-network-vendor.ts';

// A mobile operator on 127.0.0.1 as GSMA CAMARA describes one: an OpenID authorization server (discovery,
// an authorization endpoint that never shows a page, a token endpoint taking `private_key_jwt` and the JWT
// bearer grant) and the Number Verification API v2. It knows a device by the address it connects from: an
// address in `phones` is a phone on its data network holding that number; any other is on Wi-Fi, and is sent
// back with `login_required`. Every request is checked as CAMARA's documents say, and a broken rule is
// answered as they say (an error page, `invalid_request`, `invalid_client`, `INVALID_ARGUMENT`).

/** Access tokens live this long, and are good for one call. */
const TOKEN_SECONDS = 300;
const PHONE = /^\+[1-9][0-9]{4,14}$/;

interface Grant {
  phone: string;
  clientId: string;
  redirectUri?: string;
  challenge?: string;
  at: number;
}

export class FakeOperator extends FakeNetworkVendor {
  /** TS.43 operator tokens an app may hold -> the number */
  readonly operatorTokens = new Map<string, string>();
  readonly #codes = new Map<string, Grant>();
  readonly #tokens = new Map<string, Grant>();
  readonly #jtis = new Set<string>();

  constructor(
    private readonly client: {
      clientId: string;
      redirectUris: string[];
      jwk: () => Promise<JWK>;
      /** the operator's clock, in ms: the test's, where it moves one */
      now?: () => number;
    },
  ) {
    super(client.now);
  }

  /** /verify answers this status instead (an operator in trouble); the check's last call, as the base names it */
  get failVerifyWith() {
    return this.failCheckWith;
  }
  set failVerifyWith(status: number) {
    this.failCheckWith = status;
  }
  /** /verify never answers (an operator that hangs) */
  get hangVerify() {
    return this.hangCheck;
  }
  set hangVerify(on: boolean) {
    this.hangCheck = on;
  }

  /** The device at `fromAddress` opens `url` (an authorization URL) and is sent on: where to. */
  static follow(url: string, fromAddress: string): Promise<{ status: number; location?: string }> {
    return new Promise((resolve, reject) => {
      const call = request(url, { localAddress: fromAddress }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, location: res.headers.location });
      });
      call.on('error', reject);
      call.end();
    });
  }

  protected async answer(i: Incoming) {
    const { req, res, url, raw, seen } = i;
    const refuse = (status: number, body: object, problem: string) => {
      seen.problem = problem;
      send(res, status, body);
    };
    if (req.method === 'GET' && url.pathname === '/.well-known/openid-configuration')
      return send(res, 200, {
        issuer: this.url,
        authorization_endpoint: `${this.url}/authorize`,
        token_endpoint: `${this.url}/token`,
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
        grant_types_supported: ['authorization_code', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
        code_challenge_methods_supported: ['S256'],
      });
    if (req.method === 'GET' && url.pathname === '/authorize') return this.#authorize(i, refuse);
    if (req.method === 'POST' && url.pathname === '/token') return this.#token(req, res, raw, refuse);
    if (req.method === 'POST' && url.pathname === '/number-verification/v2/verify')
      return this.#verify(req, res, raw, refuse, seen);
    refuse(404, { status: 404, code: 'NOT_FOUND', message: 'no such path' }, 'unknown path');
  }

  #authorize(i: Incoming, refuse: Refuse) {
    const { res, url } = i;
    const q = Object.fromEntries(url.searchParams);
    // A client or redirect URI it does not know: an error page, never a redirect.
    if (q.client_id !== this.client.clientId || !this.client.redirectUris.includes(q.redirect_uri ?? ''))
      return refuse(400, { error: 'invalid_request' }, 'unknown client or redirect_uri');
    const back = (params: Record<string, string>) => {
      const to = new URL(q.redirect_uri);
      for (const [k, v] of Object.entries({ ...params, state: q.state ?? '' })) to.searchParams.set(k, v);
      res.writeHead(302, { location: to.toString() }).end();
    };
    const scopes = (q.scope ?? '').split(' ');
    const problem =
      q.response_type !== 'code'
        ? 'response_type'
        : !scopes.includes('openid') || !scopes.includes('number-verification:verify')
          ? 'scope'
          : scopes.filter((s) => s.startsWith('dpv:')).length !== 1
            ? 'exactly one purpose'
            : q.prompt !== 'none'
              ? 'prompt=none'
              : !q.login_hint?.startsWith('tel:') || !PHONE.test(q.login_hint.slice(4))
                ? 'login_hint'
                : !q.state || !q.nonce
                  ? 'state and nonce'
                  : q.code_challenge_method !== 'S256' || !/^[\w-]{43,128}$/.test(q.code_challenge ?? '')
                    ? 'PKCE S256'
                    : '';
    if (problem) {
      i.seen.problem = problem;
      return back({ error: 'invalid_request', error_description: problem });
    }
    const phone = this.phones.get(i.address);
    if (!phone) return back({ error: 'login_required' });
    const code = randomBytes(16).toString('base64url');
    this.#codes.set(code, {
      phone,
      clientId: q.client_id,
      redirectUri: q.redirect_uri,
      challenge: q.code_challenge,
      at: this.now(),
    });
    back({ code });
  }

  async #token(req: IncomingMessage, res: ServerResponse, raw: string, refuse: Refuse) {
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return refuse(400, { error: 'invalid_request' }, 'not a form');
    const f = Object.fromEntries(new URLSearchParams(raw));
    const endpoint = `${this.url}/token`;
    const client = await this.#signedBy(f.client_assertion, endpoint);
    if (f.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' || !client)
      return refuse(401, { error: 'invalid_client' }, 'client assertion');
    if (client.sub !== this.client.clientId)
      return refuse(401, { error: 'invalid_client' }, 'client assertion subject');
    let grant: Grant | undefined;
    if (f.grant_type === 'authorization_code') {
      grant = this.#codes.get(f.code ?? '');
      this.#codes.delete(f.code ?? '');
      const challenge = createHash('sha256')
        .update(f.code_verifier ?? '')
        .digest('base64url');
      if (!grant || grant.redirectUri !== f.redirect_uri || grant.challenge !== challenge)
        return refuse(400, { error: 'invalid_grant' }, 'code, redirect_uri or PKCE');
    } else if (f.grant_type === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      // The profile: no scope parameter; the assertion carries it.
      const assertion = await this.#signedBy(f.assertion, endpoint);
      if (
        f.scope !== undefined ||
        !assertion ||
        !String(assertion.scope).includes('number-verification:verify')
      )
        return refuse(400, { error: 'invalid_request' }, 'assertion or scope');
      const phone = this.operatorTokens.get(String(assertion.sub).replace(/^operatortoken:/, ''));
      if (!String(assertion.sub).startsWith('operatortoken:') || !phone)
        return refuse(400, { error: 'invalid_grant' }, 'operator token');
      grant = { phone, clientId: this.client.clientId, at: this.now() };
    } else return refuse(400, { error: 'unsupported_grant_type' }, 'grant_type');
    const token = randomBytes(24).toString('base64url');
    this.#tokens.set(token, { ...grant, at: this.now() });
    send(res, 200, { access_token: token, token_type: 'Bearer', expires_in: TOKEN_SECONDS });
  }

  /** The claims of a JWT the client signed for `audience`, or undefined: CAMARA's rules on its times. */
  async #signedBy(jwt: string | undefined, audience: string) {
    if (!jwt) return undefined;
    try {
      const key = await importJWK(await this.client.jwk(), 'RS256');
      const currentDate = new Date(this.now());
      const { payload } = await jwtVerify(jwt, key, { issuer: this.client.clientId, audience, currentDate });
      const { iat, exp, jti } = payload;
      const now = this.now() / 1000;
      if (typeof iat !== 'number' || typeof exp !== 'number' || typeof jti !== 'string') return undefined;
      if (exp - iat > 300 || exp > now + 300 || iat > now + 5 || this.#jtis.has(jti)) return undefined;
      this.#jtis.add(jti);
      return payload;
    } catch {
      return undefined;
    }
  }

  #verify(
    req: IncomingMessage,
    res: ServerResponse,
    raw: string,
    refuse: Refuse,
    seen: { correlator?: string },
  ) {
    if (this.hangVerify) return;
    const correlator = req.headers['x-correlator'];
    seen.correlator = typeof correlator === 'string' ? correlator : undefined;
    const headers = seen.correlator ? { 'x-correlator': seen.correlator } : {};
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const grant = this.#tokens.get(token);
    this.#tokens.delete(token); // one call a token
    if (!grant || this.now() - grant.at > TOKEN_SECONDS * 1000)
      return refuse(401, { status: 401, code: 'UNAUTHENTICATED', message: 'no valid token' }, 'token');
    if (this.failVerifyWith)
      return refuse(
        this.failVerifyWith,
        { status: this.failVerifyWith, code: 'UNAVAILABLE', message: 'down' },
        'failing',
      );
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw);
    } catch {}
    const keys = Object.keys(body);
    const plain = typeof body.phoneNumber === 'string' && PHONE.test(body.phoneNumber);
    const hashed =
      typeof body.hashedPhoneNumber === 'string' && /^[a-fA-F0-9]{64}$/.test(body.hashedPhoneNumber);
    if (keys.length !== 1 || !(plain || hashed))
      return refuse(
        400,
        { status: 400, code: 'INVALID_ARGUMENT', message: 'one of phoneNumber or hashedPhoneNumber' },
        'body',
      );
    const matches = plain
      ? body.phoneNumber === grant.phone
      : body.hashedPhoneNumber === createHash('sha256').update(grant.phone).digest('hex');
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ devicePhoneNumberVerified: matches }));
  }
}

type Refuse = (status: number, body: object, problem: string) => void;
