// Apple's App Attest, as Apple's "Validating apps that connect to your server" gives it.
//
// Rules it enforces, for a key's registration (its attestation object):
// - The format is `apple-appattest`; the certificate chain `x5c` (credential certificate, then intermediate)
//   leads to Apple's App Attestation root (or, in tests only, APP_ATTEST_ROOT_CA), every certificate valid now.
// - The credential certificate's extension 1.2.840.113635.100.8.2 holds the nonce
//   SHA-256(authData || SHA-256(challenge)): else wrong_binding.
// - The key id is the SHA-256 of the credential certificate's public key (its uncompressed point), and the
//   credential id of authData.
// - authData's RP ID hash is the SHA-256 of an IOS_APPS entry, its counter 0, and its AAGUID the one of
//   APP_ATTEST_ENVIRONMENT ("appattestdevelop", or "appattest" and seven zero bytes in production).
// Anything else is app_not_recognized.
//
// Rules it enforces, for a send's assertion:
// - The assertion's signature over SHA-256(authenticatorData || SHA-256(client data)) verifies with the
//   registered key (else wrong_binding), and its RP ID hash is the key's app's (else app_not_recognized).
// - Its counter is above the key's last (storage/rules/app-attest-counter.ts): else replayed.
import { createHash, type KeyObject, verify, X509Certificate } from 'node:crypto';
import { AsnParser } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { appIdHash, type IosApp } from '../../config/app-settings.ts';
import type { AttestationRefusal } from './integrity-verdict.ts';

const NONCE_EXTENSION = '1.2.840.113635.100.8.2';
export const APP_ATTEST_AAGUID = {
  production: Buffer.concat([Buffer.from('appattest'), Buffer.alloc(7)]),
  development: Buffer.from('appattestdevelop'),
};
/** The nonce extension's DER: SEQUENCE { [1] { OCTET STRING (32 bytes) } }. */
const NONCE_PREFIX = Buffer.from('3024a1220420', 'hex');

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** What the registration keeps of a key: its app and public key. */
export interface AttestedKey {
  appId: string;
  publicKey: KeyObject;
}

export class AttestationRefused extends Error {
  constructor(readonly reason: AttestationRefusal) {
    super(reason);
  }
}
const refused = (reason: AttestationRefusal = 'app_not_recognized') => new AttestationRefused(reason);

/** authData: RP ID hash, flags, counter; for an attestation, AAGUID and credential id too. */
function parseAuthData(data: Buffer) {
  if (data.length < 37) throw refused();
  const parsed = { rpIdHash: data.subarray(0, 32), counter: data.readUInt32BE(33) };
  if (data.length < 55) return { ...parsed, aaguid: undefined, credentialId: undefined };
  const length = data.readUInt16BE(53);
  return { ...parsed, aaguid: data.subarray(37, 53), credentialId: data.subarray(55, 55 + length) };
}

const decodeMap = (bytes: Buffer): Map<string, unknown> => {
  try {
    const decoded: unknown = isoCBOR.decodeFirst(new Uint8Array(bytes));
    if (decoded instanceof Map) return decoded;
  } catch {}
  throw refused();
};

const bytesAt = (map: Map<string, unknown> | undefined, name: string): Buffer => {
  const value = map?.get(name);
  if (!(value instanceof Uint8Array)) throw refused();
  return Buffer.from(value);
};

/** The chain from the credential certificate to the root, each certificate valid at `now`. */
function checkChain(x5c: unknown, rootPem: string, now: Date): X509Certificate {
  if (!Array.isArray(x5c) || x5c.length < 2 || !x5c.every((c) => c instanceof Uint8Array)) throw refused();
  const chain = [...x5c.map((der) => new X509Certificate(Buffer.from(der))), new X509Certificate(rootPem)];
  for (const [i, certificate] of chain.entries()) {
    const valid = new Date(certificate.validFrom) <= now && now <= new Date(certificate.validTo);
    const issuer = chain[i + 1] ?? certificate;
    if (!valid || !certificate.checkIssued(issuer) || !certificate.verify(issuer.publicKey)) throw refused();
  }
  return chain[0];
}

/** The credential certificate's nonce extension's 32 bytes. */
function nonceOf(certificate: X509Certificate): Buffer {
  const parsed = AsnParser.parse(certificate.raw, Certificate);
  const extension = parsed.tbsCertificate.extensions?.find((e) => e.extnID === NONCE_EXTENSION);
  const value = extension ? Buffer.from(extension.extnValue.buffer) : Buffer.alloc(0);
  if (value.length !== 38 || !value.subarray(0, 6).equals(NONCE_PREFIX)) throw refused();
  return value.subarray(6);
}

/** The uncompressed point of an EC P-256 public key. */
function pointOf(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.crv !== 'P-256' || !jwk.x || !jwk.y) throw refused();
  return Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
}

/** A key's attestation checked: the app it is of, and its public key. */
export function verifyAttestation(
  o: { keyId: Buffer; attestation: Buffer; challenge: string },
  trust: { apps: readonly IosApp[]; rootPem: string; environment: 'production' | 'development'; now: Date },
): AttestedKey {
  const object = decodeMap(o.attestation);
  const statement = object.get('attStmt');
  if (object.get('fmt') !== 'apple-appattest' || !(statement instanceof Map)) throw refused();
  const authData = bytesAt(object, 'authData');
  const credential = checkChain(statement.get('x5c'), trust.rootPem, trust.now);
  if (!nonceOf(credential).equals(sha256(authData, sha256(Buffer.from(o.challenge)))))
    throw refused('wrong_binding');
  const point = pointOf(credential.publicKey);
  const data = parseAuthData(authData);
  const app = trust.apps.find((a) => appIdHash(a).equals(data.rpIdHash));
  const aaguid = APP_ATTEST_AAGUID[trust.environment];
  if (!sha256(point).equals(o.keyId) || !data.credentialId?.equals(o.keyId)) throw refused();
  if (!app || data.counter !== 0 || !data.aaguid?.equals(aaguid)) throw refused();
  return { appId: app.appId, publicKey: credential.publicKey };
}

/** A send's assertion checked against its key: the counter it carries, to advance the key's to. */
export function verifyAssertion(
  o: { assertion: Buffer; clientData: string },
  key: { appId: string; publicKey: KeyObject },
): number {
  const assertion = decodeMap(o.assertion);
  const authenticatorData = bytesAt(assertion, 'authenticatorData');
  const signature = bytesAt(assertion, 'signature');
  const nonce = sha256(authenticatorData, sha256(Buffer.from(o.clientData)));
  if (!verify('sha256', nonce, key.publicKey, signature)) throw refused('wrong_binding');
  const data = parseAuthData(authenticatorData);
  if (!data.rpIdHash.equals(sha256(Buffer.from(key.appId)))) throw refused();
  return data.counter;
}
