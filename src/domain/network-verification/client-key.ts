import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { operatorClientKeysRepo } from '../../storage/repositories/operator-client-keys.ts';
import type { PurposeKeys } from '../purpose-keys.ts';

const generateRsa = promisify(generateKeyPair);

/** The key Callsign signs its requests to the operator with (`private_key_jwt`), and its public half. */
export interface OperatorClientKey {
  kid: string;
  privateKey: KeyObject;
  /** what the operator registers: the public half, with its kid, use and algorithm */
  publicJwk: JWK;
}

async function published(publicKey: KeyObject): Promise<{ kid: string; jwk: JWK }> {
  const { kty, n, e } = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint({ kty, n, e });
  return { kid, jwk: { kty, n, e, kid, use: 'sig', alg: 'RS256' } };
}

/**
 * The operator's client key: the one configured (its PEM), else the one kept sealed in the database, made on
 * first start (once, even when instances start together). Its kid is its RFC 7638 thumbprint.
 */
export async function operatorClientKey(
  d: { db: Database; sealing: PurposeKeys; clock: Clock },
  configuredPem?: string,
): Promise<OperatorClientKey> {
  if (configuredPem) {
    const privateKey = createPrivateKey(configuredPem);
    const { kid, jwk } = await published(createPublicKey(privateKey));
    return { kid, privateKey, publicJwk: jwk };
  }
  const kept = await operatorClientKeysRepo.newest(d.db);
  if (kept) return opened(d.sealing, kept.kid, kept.public_jwk, kept.private_key_enc);
  const made = await generateRsa('rsa', { modulusLength: 2048 });
  const row = await d.db.transaction(async (tx) => {
    await operatorClientKeysRepo.lockForChange(tx);
    const other = await operatorClientKeysRepo.newest(tx);
    if (other) return other;
    const { kid, jwk } = await published(made.publicKey);
    const der = made.privateKey.export({ type: 'pkcs8', format: 'der' });
    const fresh = { kid, public_jwk: jwk, private_key_enc: d.sealing.seal(der), created_at: d.clock.now() };
    await operatorClientKeysRepo.insert(tx, fresh);
    return fresh;
  });
  return opened(d.sealing, row.kid, row.public_jwk, row.private_key_enc);
}

function opened(sealing: PurposeKeys, kid: string, publicJwk: JWK, sealed: string): OperatorClientKey {
  const privateKey = createPrivateKey({ key: sealing.open(sealed), format: 'der', type: 'pkcs8' });
  return { kid, privateKey, publicJwk };
}
