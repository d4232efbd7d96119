import type { PurposeKeys } from '../../domain/purpose-keys.ts';

/**
 * The authorization page carries its state (the checked authorization request, the phone being verified,
 * the temp_token) in a hidden form field, sealed with AES-GCM: the browser holds it but cannot read or
 * change it, and it expires. P99: a page opened before KEY_ENCRYPTION_KEY changed still posts.
 */
export function seal(keys: PurposeKeys, value: object, now: Date, ttlSeconds = 1800): string {
  return keys
    .seal(Buffer.from(JSON.stringify({ v: value, exp: now.getTime() + ttlSeconds * 1000 })))
    .slice(3);
}

export function unseal<T>(keys: PurposeKeys, sealed: unknown, now: Date): T | undefined {
  if (typeof sealed !== 'string' || sealed.length > 8192) return undefined;
  try {
    const { v, exp } = JSON.parse(keys.open(`v1.${sealed}`).toString('utf8'));
    return exp > now.getTime() ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}
