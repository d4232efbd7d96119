import { type Algorithm, hash, verify } from '@node-rs/argon2';
import pLimit, { type LimitFunction } from 'p-limit';
import { inSpan } from '../../observability/tracing.ts';
import { hmac } from '../crypto.ts';

// argon2id over HMAC-SHA256(pepper, PIN). The pepper lives outside the database, so a stolen table
// alone cannot be brute-forced over the 10^6 PIN space. Of the five argon2id configurations OWASP lists
// as equal defense, the one with the least memory, 7 MiB, t=5, p=1 (Keycloak's default too): two hashes at
// once of the 19 MiB one (t=2) overflowed the cores' shared cache and cost nearly twice the CPU.
// (Algorithm is a const enum, which type-stripping cannot inline: 2 is Algorithm.Argon2id.)
const ARGON2ID_OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 7_168, timeCost: 5, parallelism: 1 };
/** How a hash made with ARGON2ID_OPTIONS begins (PHC string format), up to its key id. */
const PARAMS = `$argon2id$v=19$m=${ARGON2ID_OPTIONS.memoryCost},t=${ARGON2ID_OPTIONS.timeCost},p=${ARGON2ID_OPTIONS.parallelism}`;

/**
 * A pepper's name in the hashes it made, the PHC format's `keyid` parameter (which argon2 leaves out of
 * the computation): 8 bytes of an HMAC keyed by the pepper, which tell nothing of it.
 */
export function pepperKeyId(pepper: Buffer): string {
  return hmac(pepper, 'callsign PIN pepper key id').subarray(0, 8).toString('base64').replace(/=+$/, '');
}

/** The key id a PHC string names, or null for one made before P114. */
export function keyIdOf(stored: string): string | null {
  return /(?:^|,)keyid=([^,]*)(?:,|$)/.exec(stored.split('$')[3] ?? '')?.[1] ?? null;
}

/** `stored` naming `keyId` among its parameters. */
const withKeyId = (stored: string, keyId: string) => {
  const parts = stored.split('$');
  parts[3] = `${parts[3]},keyid=${keyId}`;
  return parts.join('$');
};

interface Pepper {
  secret: Buffer;
  keyId: string;
}
const pepper = (secret: Buffer): Pepper => ({ secret, keyId: pepperKeyId(secret) });

/** Which pepper made a stored hash, as the operator's count of them says it. */
export type PepperOfHash = 'current' | 'fallback' | 'unnamed' | 'other';

export class PinHasher {
  #dummy: Promise<string> | undefined;
  readonly #slots: LimitFunction;
  readonly #current: Pepper;
  /** While PIN_PEPPER changes, the one before, read with and never written with */
  readonly #fallback: Pepper | undefined;
  /** the peppers a hash made before key ids may be of */
  readonly #held: Pepper[];

  /**
   * `concurrency`: hashes computed at once by this process. Each holds 7 MiB and a core for some
   * milliseconds; more at once than the process's share of the cores only adds memory and queues them in the
   * thread pool.
   */
  constructor(currentPepper: Buffer, concurrency = 1, fallbackPepper?: Buffer) {
    this.#slots = pLimit(concurrency);
    this.#current = pepper(currentPepper);
    this.#fallback = fallbackPepper && pepper(fallbackPepper);
    this.#held = this.#fallback ? [this.#current, this.#fallback] : [this.#current];
  }

  /** A hash computed in its slot, a span of its own (its wait for the slot included) where traces are on. */
  #computed<T>(name: string, run: () => Promise<T>): Promise<T> {
    return inSpan(name, { 'callsign.hash.memory_kib': ARGON2ID_OPTIONS.memoryCost }, () => this.#slots(run));
  }

  // The binding reads its input as UTF-8 text, so the HMAC goes in as base64url.
  private peppered(p: Pepper, pin: string) {
    return hmac(p.secret, pin).toString('base64url');
  }

  /**
   * A secret other than a PIN (a recovery code) hashed the same way, with the salt given and no pepper, in the
   * same slots as PIN hashes: the same secret and salt make the same string, so a typed one is looked up.
   */
  hashWithSalt(secret: string, salt: Uint8Array): Promise<string> {
    return this.#computed('argon2id hash', () => hash(secret, { ...ARGON2ID_OPTIONS, salt }));
  }

  async hash(pin: string): Promise<string> {
    return withKeyId(
      await this.#computed('argon2id hash', () => hash(this.peppered(this.#current, pin), ARGON2ID_OPTIONS)),
      this.#current.keyId,
    );
  }

  /**
   * Whether `pin` is the one `stored` was made from, with the pepper its key id names. P114: one made before
   * key ids is tried with the current pepper and, while PIN_PEPPER changes, with the fallback too. One of a
   * pepper this process does not hold cannot be checked: it answers false, after the same time.
   */
  async verify(stored: string, pin: string): Promise<boolean> {
    const candidates = this.#peppersOf(stored);
    if (candidates.length === 0) return this.verifyNothing(pin);
    for (const candidate of candidates)
      if (await this.#computed('argon2id verify', () => verify(stored, this.peppered(candidate, pin))))
        return true;
    return false;
  }

  #peppersOf(stored: string): Pepper[] {
    const keyId = keyIdOf(stored);
    return keyId === null ? this.#held : this.#held.filter((p) => p.keyId === keyId);
  }

  /** Whether `stored` was made with today's parameters and pepper. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(`${PARAMS},keyid=${this.#current.keyId}$`);
  }

  /**
   * What replaces `stored`, checked correct for `pin`, when it is not current. P114: one made before key ids
   * with today's parameters, while no other pepper is held, can only be the current pepper's: it is named,
   * not made again.
   */
  renewed(stored: string, pin: string): Promise<string> {
    if (!this.#fallback && stored.startsWith(`${PARAMS}$`))
      return Promise.resolve(withKeyId(stored, this.#current.keyId));
    return this.hash(pin);
  }

  /** Which pepper the hashes naming `keyId` (null: named none) were made with. */
  pepperOf(keyId: string | null): PepperOfHash {
    if (keyId === null) return 'unnamed';
    if (keyId === this.#current.keyId) return 'current';
    return keyId === this.#fallback?.keyId ? 'fallback' : 'other';
  }

  /** Spend the same time as a real check, so an unknown phone is not told apart by latency. */
  async verifyNothing(pin: string): Promise<false> {
    this.#dummy ??= this.hash('unused-dummy');
    await this.verify(await this.#dummy, pin);
    return false;
  }
}
