import { type Algorithm, hash, verify } from '@node-rs/argon2';
import pLimit, { type LimitFunction } from 'p-limit';
import { hmac } from './crypto.ts';

// D8: argon2id over HMAC-SHA256(pepper, PIN). The pepper lives outside the database, so a stolen table
// alone cannot be brute-forced over the 10^6 PIN space. OWASP's argon2id minimum: 19 MiB, t=2, p=1.
// (Algorithm is a const enum, which type-stripping cannot inline: 2 is Algorithm.Argon2id.)
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export class PinHasher {
  #dummy: Promise<string> | undefined;
  readonly #slots: LimitFunction;

  /**
   * `concurrency`: hashes computed at once by this process (P56). Each holds 19 MiB and a core for some
   * 15 ms; more at once than the process's share of the cores only adds memory and queues them in the
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

  /** Spend the same time as a real check, so an unknown phone is not told apart by latency. */
  async verifyNothing(pin: string): Promise<false> {
    this.#dummy ??= this.hash('unused-dummy');
    await this.verify(await this.#dummy, pin);
    return false;
  }
}
