import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

// A software WebAuthn authenticator for the REST tests: ES256 keys, `none` attestation, discoverable
// credentials, written from the WebAuthn Level 3 data layouts (authenticator data, attested credential data,
// COSE keys) with a CBOR encoder of its own. It answers as @simplewebauthn/browser would serialise a
// browser's answer, and can be told to misbehave (another origin or RP ID, no user verification, a counter
// that goes back).

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  if (n < 65_536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

/** CBOR (RFC 8949) of integers, byte and text strings and maps: what attestation objects hold. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const entries = [...value.entries()].flatMap(([k, v]) => [cbor(k), cbor(v)]);
  return Buffer.concat([head(5, value.size), ...entries]);
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_BACKUP_ELIGIBLE = 0x08;
const FLAG_BACKED_UP = 0x10;
const FLAG_ATTESTED_DATA = 0x40;

interface Credential {
  id: Buffer;
  key: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

/** How one ceremony's answer is to (mis)behave. */
export interface Ceremony {
  origin?: string;
  rpId?: string;
  userVerified?: boolean;
  /** sign with this credential (by its id) rather than the first one for the RP ID; or create one by it */
  credentialId?: string;
  /** the counter to report instead of the next one */
  counter?: number;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];
  constructor(
    readonly origin: string,
    readonly options: { synced?: boolean; keepsCounter?: boolean; aaguid?: string } = {},
  ) {}

  private flags(userVerified: boolean) {
    let flags = FLAG_USER_PRESENT | (userVerified ? FLAG_USER_VERIFIED : 0);
    if (this.options.synced) flags |= FLAG_BACKUP_ELIGIBLE | FLAG_BACKED_UP;
    return flags;
  }

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** `navigator.credentials.create()` with the options the service gave. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, c: Ceremony = {}) {
    const rpId = c.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x ?? '', 'base64url')],
      [-3, Buffer.from(jwk.y ?? '', 'base64url')],
    ]);
    const id = c.credentialId ? Buffer.from(c.credentialId, 'base64url') : randomBytes(16);
    const idLength = Buffer.from([id.length >> 8, id.length & 255]);
    const aaguid = this.options.aaguid
      ? Buffer.from(this.options.aaguid.replace(/-/g, ''), 'hex')
      : Buffer.alloc(16);
    const attested = Buffer.concat([aaguid, idLength, id, cbor(coseKey)]);
    const counter = this.options.keepsCounter === false ? 0 : 1;
    const flags = this.flags(c.userVerified ?? true) | FLAG_ATTESTED_DATA;
    const authData = this.authData(rpId, flags, counter, attested);
    this.credentials.push({ id, key: privateKey, rpId, userHandle: options.user.id, counter });
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientData = {
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: c.origin ?? this.origin,
    };
    return {
      id: b64url(id),
      rawId: b64url(id),
      response: {
        clientDataJSON: b64url(Buffer.from(JSON.stringify(clientData))),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      type: 'public-key',
    };
  }

  /** `navigator.credentials.get()` with the options the service gave: signs with a credential it holds. */
  get(options: { challenge: string; rpId?: string }, c: Ceremony = {}) {
    const asked = options.rpId ?? new URL(this.origin).hostname;
    const credential = c.credentialId
      ? this.credentials.find((k) => b64url(k.id) === c.credentialId)
      : this.credentials.find((k) => k.rpId === asked);
    if (!credential) throw new Error('the authenticator holds no credential for this RP ID');
    const rpId = c.rpId ?? credential.rpId;
    if (this.options.keepsCounter !== false) credential.counter += 1;
    const counter = c.counter ?? credential.counter;
    const authData = this.authData(rpId, this.flags(c.userVerified ?? true), counter);
    const clientData = {
      type: 'webauthn.get',
      challenge: options.challenge,
      origin: c.origin ?? this.origin,
    };
    const clientDataJSON = Buffer.from(JSON.stringify(clientData));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.key);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      type: 'public-key',
    };
  }
}
