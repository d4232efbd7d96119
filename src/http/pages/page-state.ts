import { decrypt, encrypt } from '../../domain/crypto.ts';

/**
 * The authorization page carries its state (the checked authorization request, the phone being verified,
 * the temp_token) in a hidden form field, sealed with AES-GCM: the browser holds it but cannot read or
 * change it, and it expires.
 */
export function seal(key: Buffer, value: object, now: Date, ttlSeconds = 1800): string {
  return encrypt(
    key,
    Buffer.from(JSON.stringify({ v: value, exp: now.getTime() + ttlSeconds * 1000 })),
  ).slice(3);
}

export function unseal<T>(key: Buffer, sealed: unknown, now: Date): T | undefined {
  if (typeof sealed !== 'string' || sealed.length > 8192) return undefined;
  try {
    const { v, exp } = JSON.parse(decrypt(key, `v1.${sealed}`).toString('utf8'));
    return exp > now.getTime() ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}
