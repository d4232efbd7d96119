import { type Algorithm, hash, verify } from '@node-rs/argon2';
import pLimit, { type LimitFunction } from 'p-limit';
import { hmac } from './crypto.ts';

// D8: argon2id over HMAC-SHA256(pepper, PIN). The pepper lives outside the database, so a stolen table
// alone cannot be brute-forced over the 10^6 PIN space. P87: of the five argon2id configurations OWASP lists
// as equal defense, the one with the least memory, 7 MiB, t=5, p=1 (Keycloak's default too): two hashes at
// once of the 19 MiB one (t=2) overflowed the cores' shared cache and cost nearly twice the CPU.
// (Algorithm is a const enum, which type-stripping cannot inline: 2 is Algorithm.Argon2id.)
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 7_168, timeCost: 5, parallelism: 1 };
/** How a hash made with OPTIONS begins (PHC string format). */
const CURRENT_PREFIX = `$argon2id$v=19$m=${OPTIONS.memoryCost},t=${OPTIONS.timeCost},p=${OPTIONS.parallelism}$`;

export class PinHasher {
  #dummy: Promise<string> | undefined;
  readonly #slots: LimitFunction;

  /**
   * `concurrency`: hashes computed at once by this process (P56). Each holds 7 MiB and a core for some
   * milliseconds; more at once than the process's share of the cores only adds memory and queues them in the
   * thread pool.
   */
  constructor(
    private readonly pepper: Buffer,
    concurrency = 1,
  ) {
    this.#slots = pLimit(concurrency);
  }

  // The binding reads its input as UTF-8 text, so the HMAC goes in as base64url.
  private peppered(pin: string) {
    return hmac(this.pepper, pin).toString('base64url');
  }

  hash(pin: string): Promise<string> {
    return this.#slots(() => hash(this.peppered(pin), OPTIONS));
  }

  verify(stored: string, pin: string): Promise<boolean> {
    return this.#slots(() => verify(stored, this.peppered(pin)));
  }

  /** P87: whether `stored` was made with today's parameters; one made with others is made again. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(CURRENT_PREFIX);
  }

  /** Spend the same time as a real check, so an unknown phone is not told apart by latency. */
  async verifyNothing(pin: string): Promise<false> {
    this.#dummy ??= this.hash('unused-dummy');
    await this.verify(await this.#dummy, pin);
    return false;
  }
}
