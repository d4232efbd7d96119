import { createPrivateKey, createPublicKey, type KeyObject, randomUUID } from 'node:crypto';
import { compactDecrypt, compactVerify, SignJWT } from 'jose';
import type { ServiceAccount } from '../../config/attestation-settings.ts';
import { askVendor, fieldOf } from '../sim-check/sim-check.ts';

// Reading a Play Integrity token, as Google documents it, in either of its two ways:
// - locally, for one app, with the Play Console's keys: the token is a JWE (A256KW, A256GCM) holding a JWS
//   (ES256) whose payload is the verdict;
// - through Google's `decodeIntegrityToken` for the package the token names, authenticated as a service account:
//   a JWT signed with its key (RS256) exchanged at its key file's `token_uri` for an access token.
// Either answers the verdict's payload as JSON, unchecked (the domain checks it), or says why it could not:
// a token that does not decrypt, verify or decode is `unreadable` (not from the genuine app); Google failing or
// not answering in time is `unavailable` (nothing is known of the app).

export type IntegrityPayload = Record<string, unknown>;

export class IntegrityUnreadable extends Error {}
export class IntegrityUnavailable extends Error {}

export interface PlayIntegrityDecoder {
  decode(token: string, packageName: string): Promise<IntegrityPayload>;
}

const asPayload = (value: unknown): IntegrityPayload => {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new IntegrityUnreadable('the verdict is not an object');
  return value as IntegrityPayload;
};

/** The Play Console's keys of one app: the token opened and its signature checked here. */
export class LocalPlayIntegrity implements PlayIntegrityDecoder {
  readonly #decryption: Uint8Array;
  readonly #verification: KeyObject;

  constructor(keys: { decryptionKey: string; verificationKey: string }) {
    this.#decryption = Buffer.from(keys.decryptionKey, 'base64');
    this.#verification = createPublicKey({
      key: Buffer.from(keys.verificationKey, 'base64'),
      format: 'der',
      type: 'spki',
    });
  }

  async decode(token: string): Promise<IntegrityPayload> {
    try {
      const { plaintext } = await compactDecrypt(token, this.#decryption, {
        keyManagementAlgorithms: ['A256KW'],
        contentEncryptionAlgorithms: ['A256GCM'],
      });
      const { payload } = await compactVerify(new TextDecoder().decode(plaintext), this.#verification, {
        algorithms: ['ES256'],
      });
      return asPayload(JSON.parse(new TextDecoder().decode(payload)));
    } catch (err) {
      if (err instanceof IntegrityUnreadable) throw err;
      throw new IntegrityUnreadable('the token does not decrypt or verify');
    }
  }
}

/** The service account's access token lives an hour; it is asked for again a minute before. */
const TOKEN_MARGIN_MS = 60_000;
const SCOPE = 'https://www.googleapis.com/auth/playintegrity';
const DEADLINE_MS = 5000;

/** Google's decodeIntegrityToken, as the service account. */
export class GooglePlayIntegrity implements PlayIntegrityDecoder {
  readonly #key: KeyObject;
  #token: { value: string; until: number } | undefined;

  constructor(
    private readonly account: ServiceAccount,
    private readonly apiUrl: string,
    private readonly now: () => Date,
  ) {
    this.#key = createPrivateKey(account.privateKeyPem);
  }

  async decode(token: string, packageName: string): Promise<IntegrityPayload> {
    const access = await this.accessToken();
    const answer = await askVendor(
      `${this.apiUrl}/v1/${encodeURIComponent(packageName)}:decodeIntegrityToken`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
        body: JSON.stringify({ integrity_token: token }),
      },
      { ms: DEADLINE_MS },
    ).catch(() => {
      throw new IntegrityUnavailable('Google did not answer');
    });
    if (answer.status === 400) throw new IntegrityUnreadable('Google could not decode the token');
    const payload = fieldOf(answer.body, 'tokenPayloadExternal');
    if (answer.status !== 200 || payload === undefined)
      throw new IntegrityUnavailable(`decodeIntegrityToken answered ${answer.status}`);
    return asPayload(payload);
  }

  /** The service account's access token, kept until a minute before it ends. */
  private async accessToken(): Promise<string> {
    const now = this.now().getTime();
    if (this.#token && this.#token.until > now) return this.#token.value;
    const iat = Math.floor(now / 1000);
    const assertion = await new SignJWT({ scope: SCOPE })
      .setProtectedHeader({
        alg: 'RS256',
        typ: 'JWT',
        ...(this.account.privateKeyId ? { kid: this.account.privateKeyId } : {}),
      })
      .setIssuer(this.account.clientEmail)
      .setAudience(this.account.tokenUri)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 3600)
      .setJti(randomUUID())
      .sign(this.#key);
    const answer = await askVendor(
      this.account.tokenUri,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
          assertion,
        }).toString(),
      },
      { ms: DEADLINE_MS },
    ).catch(() => {
      throw new IntegrityUnavailable('Google’s token endpoint did not answer');
    });
    const value = fieldOf(answer.body, 'access_token');
    const expiresIn = Number(fieldOf(answer.body, 'expires_in') ?? 3600);
    if (answer.status !== 200 || typeof value !== 'string')
      throw new IntegrityUnavailable(`the token endpoint answered ${answer.status}`);
    this.#token = { value, until: now + expiresIn * 1000 - TOKEN_MARGIN_MS };
    return value;
  }
}
