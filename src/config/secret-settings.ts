// The PIN pepper and the key-encryption key, as the environment gives them.
//
// Rules it enforces (at start):
// - Each is base64 of at least 32 bytes.
// - A fallback is never the secret itself: the same secret twice is a change half made.
import type { EnvReader } from './env-reader.ts';

/** PIN_PEPPER and KEY_ENCRYPTION_KEY, base64 of at least 32 bytes; each fallback while it changes. */
export interface SecretSettings {
  pinPepper: string | undefined;
  pinPepperFallback: string | undefined;
  keyEncryptionKey: string | undefined;
  keyEncryptionKeyFallback: string | undefined;
}

/** The pepper and the key-encryption key, each with the fallback it has while it changes. */
export function secretSettings(r: EnvReader): SecretSettings {
  const secrets = {
    pinPepper: r.key('PIN_PEPPER'),
    pinPepperFallback: r.key('PIN_PEPPER_FALLBACK'),
    keyEncryptionKey: r.key('KEY_ENCRYPTION_KEY'),
    keyEncryptionKeyFallback: r.key('KEY_ENCRYPTION_KEY_FALLBACK'),
  };
  // The same secret twice is a change half made: the old one is nowhere, and nothing says so.
  for (const [name, fallback, current] of [
    ['KEY_ENCRYPTION_KEY', secrets.keyEncryptionKeyFallback, secrets.keyEncryptionKey],
    ['PIN_PEPPER', secrets.pinPepperFallback, secrets.pinPepper],
  ] as const)
    if (
      fallback !== undefined &&
      current !== undefined &&
      Buffer.from(fallback, 'base64').equals(Buffer.from(current, 'base64'))
    )
      r.problems.push(`${name}_FALLBACK must not be ${name} itself`);
  return secrets;
}
