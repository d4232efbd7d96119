import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomFillSync,
  timingSafeEqual,
} from 'node:crypto';

/** Tokens with 256 bits of entropy need no key: SHA-256 alone makes the stored value useless to a thief. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

export const hmac = (key: Buffer, value: string) => createHmac('sha256', key).update(value).digest();

export function safeEqual(a: string | Buffer, b: string | Buffer): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** One secret, many purposes: each purpose gets its own key (RFC 5869). */
export const deriveKey = (secret: Buffer, purpose: string) =>
  Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `callsign:${purpose}`, 32));

// AES-256-GCM envelope for data at rest: "v1.<iv>.<tag>.<ciphertext>", base64url parts.
/**
 * Random bytes for IVs, drawn from the system's generator in blocks: each IV is fresh random bytes, as many
 * as asked, without a system call for each.
 */
const ivPool = Buffer.alloc(4096);
let ivPoolUsed = ivPool.length;
function freshIv(size: number): Buffer {
  if (ivPoolUsed + size > ivPool.length) {
    randomFillSync(ivPool);
    ivPoolUsed = 0;
  }
  ivPoolUsed += size;
  return Buffer.from(ivPool.subarray(ivPoolUsed - size, ivPoolUsed));
}

export function encrypt(key: Buffer, plaintext: Buffer): string {
  const iv = freshIv(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decrypt(key: Buffer, envelope: string): Buffer {
  const [version, iv, tag, body] = envelope.split('.');
  if (version !== 'v1') throw new Error('unknown encryption envelope');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
}
