import { createHash, generateKeyPairSync, type KeyObject, sign, webcrypto } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as x509 from '@peculiar/x509';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/** What the CBOR encoder takes. */
type CBORValue = Parameters<typeof isoCBOR.encode>[0];

import { CompactEncrypt, CompactSign } from 'jose';
import { bindingOf, nonceOf, requestHashOf } from '../../src/domain/app-attestation/binding.ts';

// What a genuine app on a genuine device sends, made in the tests with keys of their own: Play Integrity tokens
// as Google makes them (a JWE, A256KW and A256GCM, holding a JWS, ES256), and App Attest attestations and
// assertions as an iPhone makes them, under a test root certificate standing in for Apple's.

x509.cryptoProvider.set(webcrypto as Crypto);

/** The Play Console's keys of one app, and the signing key Google holds. */
export function playIntegrityKeys() {
  const decryption = webcrypto.getRandomValues(new Uint8Array(32));
  const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    decryptionKey: Buffer.from(decryption).toString('base64'),
    verificationKey: signing.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    decryption,
    signing: signing.privateKey,
  };
}
export type PlayKeys = ReturnType<typeof playIntegrityKeys>;

/** A verdict payload as Google writes one, for a send's binding, with whatever the test changes. */
export function verdict(o: {
  packageName: string;
  certificateHex: string;
  binding: string;
  now: Date;
  classic?: 'padded' | 'unpadded';
  appVerdict?: string;
  device?: string[];
}) {
  const hashed =
    o.classic === undefined
      ? { requestHash: requestHashOf(o.binding) }
      : { nonce: `${nonceOf(o.binding)}${o.classic === 'padded' ? '=' : ''}` };
  return {
    requestDetails: {
      requestPackageName: o.packageName,
      timestampMillis: String(o.now.getTime()),
      ...hashed,
    },
    appIntegrity: {
      appRecognitionVerdict: o.appVerdict ?? 'PLAY_RECOGNIZED',
      packageName: o.packageName,
      certificateSha256Digest: [Buffer.from(o.certificateHex, 'hex').toString('base64url')],
      versionCode: '42',
    },
    deviceIntegrity: { deviceRecognitionVerdict: o.device ?? ['MEETS_DEVICE_INTEGRITY'] },
    accountDetails: { appLicensingVerdict: 'LICENSED' },
  };
}

/** The token of a verdict: signed by Google's key, encrypted to the app's. */
export async function integrityToken(keys: PlayKeys, payload: object): Promise<string> {
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ES256' })
    .sign(keys.signing);
  return new CompactEncrypt(new TextEncoder().encode(jws))
    .setProtectedHeader({ alg: 'A256KW', enc: 'A256GCM' })
    .encrypt(keys.decryption);
}

export { bindingOf };

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
/** An EC P-256 key pair as @peculiar/x509 types one (the DOM's CryptoKeyPair; Node's is the same object). */
const ecKeys = async () =>
  (await webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as unknown as CryptoKeyPair;

/** A certificate authority standing in for Apple's App Attestation root, with its intermediate. */
export async function appAttestAuthority() {
  const rootKeys = await ecKeys();
  const caKeys = await ecKeys();
  const notBefore = new Date(Date.now() - 86_400_000);
  const notAfter = new Date(Date.now() + 10 * 365 * 86_400_000);
  const ca = [new x509.BasicConstraintsExtension(true, undefined, true)];
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    name: 'CN=Test App Attestation Root CA',
    keys: rootKeys,
    signingAlgorithm: EC,
    notBefore,
    notAfter,
    extensions: ca,
  });
  const intermediate = await x509.X509CertificateGenerator.create({
    subject: 'CN=Test App Attestation CA 1',
    issuer: root.subject,
    publicKey: caKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: EC,
    notBefore,
    notAfter,
    extensions: ca,
  });
  const rootPemFile = join(mkdtempSync(join(tmpdir(), 'callsign-attest-')), 'root.pem');
  writeFileSync(rootPemFile, root.toString('pem'));
  return { root, intermediate, caKeys, rootPemFile, notBefore, notAfter };
}
export type AppAttestAuthority = Awaited<ReturnType<typeof appAttestAuthority>>;

/** An iPhone's App Attest key for `appId`, attested over `challenge`: what it sends, and its private key. */
export async function appAttestKey(
  authority: AppAttestAuthority,
  o: { appId: string; challenge: string; environment?: 'production' | 'development'; nonce?: Buffer },
) {
  const keys = await ecKeys();
  const point = Buffer.from(await crypto.subtle.exportKey('raw', keys.publicKey));
  const keyId = sha256(point);
  const aaguid =
    o.environment === 'development'
      ? Buffer.from('appattestdevelop')
      : Buffer.concat([Buffer.from('appattest'), Buffer.alloc(7)]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(keyId.length);
  const authData = Buffer.concat([
    sha256(Buffer.from(o.appId)),
    Buffer.from([0x40]),
    Buffer.alloc(4),
    aaguid,
    length,
    keyId,
  ]);
  const nonce = o.nonce ?? sha256(authData, sha256(Buffer.from(o.challenge)));
  const extension = new x509.Extension(
    '1.2.840.113635.100.8.2',
    false,
    Buffer.concat([Buffer.from('3024a1220420', 'hex'), nonce]),
  );
  const credential = await x509.X509CertificateGenerator.create({
    subject: `CN=${keyId.toString('hex')}`,
    issuer: authority.intermediate.subject,
    publicKey: keys.publicKey,
    signingKey: authority.caKeys.privateKey,
    signingAlgorithm: EC,
    notBefore: authority.notBefore,
    notAfter: authority.notAfter,
    extensions: [extension],
  });
  const attestation = isoCBOR.encode(
    new Map<string, CBORValue>([
      ['fmt', 'apple-appattest'],
      [
        'attStmt',
        new Map<string, CBORValue>([
          ['x5c', [new Uint8Array(credential.rawData), new Uint8Array(authority.intermediate.rawData)]],
          ['receipt', new Uint8Array(8)],
        ]),
      ],
      ['authData', new Uint8Array(authData)],
    ]),
  );
  const privateKey = crypto.subtle.exportKey('pkcs8', keys.privateKey);
  return {
    keyId: keyId.toString('base64'),
    attestation: Buffer.from(attestation).toString('base64'),
    privateKey: await privateKey.then((der) => ({
      key: Buffer.from(der),
      format: 'der' as const,
      type: 'pkcs8' as const,
    })),
  };
}

/** An App Attest assertion over `clientData`, with the counter the device is at. */
export function appAttestAssertion(
  key: { privateKey: { key: Buffer; format: 'der'; type: 'pkcs8' } },
  o: { appId: string; clientData: string; counter: number },
): string {
  const count = Buffer.alloc(4);
  count.writeUInt32BE(o.counter);
  const authenticatorData = Buffer.concat([sha256(Buffer.from(o.appId)), Buffer.from([0x00]), count]);
  const nonce = sha256(authenticatorData, sha256(Buffer.from(o.clientData)));
  const signature = sign('sha256', nonce, key.privateKey as unknown as KeyObject);
  const encoded = isoCBOR.encode(
    new Map<string, CBORValue>([
      ['signature', new Uint8Array(signature)],
      ['authenticatorData', new Uint8Array(authenticatorData)],
    ]),
  );
  return Buffer.from(encoded).toString('base64');
}
