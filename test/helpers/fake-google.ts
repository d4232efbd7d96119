import { createPublicKey, type KeyObject } from 'node:crypto';
import { compactDecrypt, compactVerify, jwtVerify } from 'jose';
import type { PlayKeys } from './attestation.ts';
import { FakeNetworkVendor, type Incoming, refuse, send } from './fake-network-vendor.ts';

// Google's OAuth token endpoint and Play Integrity's decodeIntegrityToken on 127.0.0.1, as Google documents
// them: a service account's JWT (RS256; iss its e-mail, aud the token endpoint, the playintegrity scope, at most
// an hour) exchanged by the JWT bearer grant for an access token; `POST /v1/{package}:decodeIntegrityToken`
// with that token and `{"integrity_token": ...}`, answered `{"tokenPayloadExternal": ...}` (the token opened with
// the keys Google holds for the app), or 400 for a token that does not open.

const SCOPE = 'https://www.googleapis.com/auth/playintegrity';

export class FakeGoogle extends FakeNetworkVendor {
  readonly #tokens = new Set<string>();
  #issued = 0;

  constructor(
    private readonly account: { clientEmail: string; publicKey: KeyObject },
    /** the keys of each package's tokens */
    private readonly apps: Map<string, PlayKeys>,
    now?: () => number,
  ) {
    super(now);
  }

  protected async answer(i: Incoming) {
    if (i.req.method === 'POST' && i.url.pathname === '/token') return this.#token(i);
    const decode = /^\/v1\/([\w.]+):decodeIntegrityToken$/.exec(i.url.pathname);
    if (i.req.method === 'POST' && decode) return this.#decode(i, decode[1]);
    refuse(i, 404, { error: { code: 404, status: 'NOT_FOUND' } }, 'unknown path');
  }

  async #token(i: Incoming) {
    const form = Object.fromEntries(new URLSearchParams(i.raw));
    if (form.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
      return refuse(i, 400, { error: 'unsupported_grant_type' }, 'grant_type');
    try {
      const { payload, protectedHeader } = await jwtVerify(form.assertion ?? '', this.account.publicKey, {
        issuer: this.account.clientEmail,
        audience: `${this.url}/token`,
        currentDate: new Date(this.now()),
      });
      const life = Number(payload.exp) - Number(payload.iat);
      if (protectedHeader.alg !== 'RS256' || payload.scope !== SCOPE || !(life > 0 && life <= 3600))
        throw new Error('claims');
    } catch {
      return refuse(i, 400, { error: 'invalid_grant' }, 'assertion');
    }
    const token = `ya29.test-${++this.#issued}`;
    this.#tokens.add(token);
    send(i.res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
  }

  async #decode(i: Incoming, packageName: string) {
    if (this.hangCheck) return;
    if (this.failCheckWith)
      return refuse(i, this.failCheckWith, { error: { code: this.failCheckWith } }, 'failing');
    const bearer = /^Bearer (.+)$/.exec(i.req.headers.authorization ?? '')?.[1] ?? '';
    if (!this.#tokens.has(bearer))
      return refuse(i, 401, { error: { code: 401, status: 'UNAUTHENTICATED' } }, 'bearer');
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(i.raw);
    } catch {}
    const keys = this.apps.get(packageName);
    if (typeof body.integrity_token !== 'string' || !keys)
      return refuse(i, 400, { error: { code: 400, status: 'INVALID_ARGUMENT' } }, 'body or package');
    try {
      const { plaintext } = await compactDecrypt(body.integrity_token, keys.decryption);
      const verifying = createPublicKey({
        key: Buffer.from(keys.verificationKey, 'base64'),
        format: 'der',
        type: 'spki',
      });
      const { payload } = await compactVerify(new TextDecoder().decode(plaintext), verifying);
      send(i.res, 200, { tokenPayloadExternal: JSON.parse(new TextDecoder().decode(payload)) });
    } catch {
      send(i.res, 400, {
        error: { code: 400, message: 'Integrity token cannot be decoded', status: 'INVALID_ARGUMENT' },
      });
    }
  }
}
