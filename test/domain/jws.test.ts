import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { compactVerify, decodeProtectedHeader, jwtVerify } from 'jose';
import { signRs256Jwt } from '../../src/domain/sessions/access-tokens.ts';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

test('a token signed on the calling thread is an RS256 JWS that jose verifies', async () => {
  const payload = { iss: 'http://localhost:3000', sub: 'u1', aud: 'app', iat: 1, exp: 4_000_000_000, n: 'é' };
  const token = signRs256Jwt({ typ: 'JWT', kid: 'k1' }, payload, privateKey);
  assert.equal(typeof token, 'string'); // not a promise: no thread-pool job
  assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/); // RFC 7515 §7.1, base64url without padding
  assert.deepEqual(decodeProtectedHeader(token), { alg: 'RS256', typ: 'JWT', kid: 'k1' });
  const verified = await jwtVerify(token, publicKey, { algorithms: ['RS256'], typ: 'JWT' });
  assert.deepEqual(verified.payload, payload);
  // RSASSA-PKCS1-v1_5 is deterministic (RFC 8017 §8.2): the same input signs to the same token.
  assert.equal(signRs256Jwt({ typ: 'JWT', kid: 'k1' }, payload, privateKey), token);
});

test('a changed header, payload or signature does not verify', async () => {
  const token = signRs256Jwt({ typ: 'JWT', kid: 'k1' }, { sub: 'u1' }, privateKey);
  const [h, p, s] = token.split('.');
  const other = signRs256Jwt({ typ: 'JWT', kid: 'k2' }, { sub: 'u2' }, privateKey).split('.');
  for (const forged of [`${other[0]}.${p}.${s}`, `${h}.${other[1]}.${s}`, `${h}.${p}.${other[2]}`])
    await assert.rejects(compactVerify(forged, publicKey), { code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' });
});
