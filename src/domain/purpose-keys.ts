import { decrypt, deriveKey, encrypt } from './crypto.ts';

/**
 * The keys of one purpose, derived from KEY_ENCRYPTION_KEY and, while that key is being changed, from
 * KEY_ENCRYPTION_KEY_FALLBACK. Everything new is sealed, hashed and tagged with the current key only; what the
 * fallback sealed or tagged is still read, until `callsign keys reencrypt` has sealed it again and the tokens
 * it tagged have expired.
 */
export class PurposeKeys {
  /** the current key first */
  readonly all: readonly Buffer[];

  constructor(
    readonly current: Buffer,
    fallback?: Buffer,
  ) {
    this.all = fallback ? [current, fallback] : [current];
  }

  static derive(keyEncryptionKey: Buffer, fallback: Buffer | undefined, purpose: string): PurposeKeys {
    return new PurposeKeys(deriveKey(keyEncryptionKey, purpose), fallback && deriveKey(fallback, purpose));
  }

  seal(plaintext: Buffer): string {
    return encrypt(this.current, plaintext);
  }

  /** Throws when no key opens the envelope (AES-GCM refuses a wrong key, or a changed envelope). */
  open(envelope: string): Buffer {
    return this.openWith(envelope).plaintext;
  }

  /**
   * The envelope sealed again with the current key, or undefined when it already is. Throws when no key
   * opens it.
   */
  reseal(envelope: string): string | undefined {
    const { plaintext, byCurrent } = this.openWith(envelope);
    return byCurrent ? undefined : this.seal(plaintext);
  }

  private openWith(envelope: string): { plaintext: Buffer; byCurrent: boolean } {
    let refusal: unknown;
    for (const key of this.all) {
      try {
        return { plaintext: decrypt(key, envelope), byCurrent: key === this.current };
      } catch (err) {
        refusal = err;
      }
    }
    throw refusal;
  }
}
