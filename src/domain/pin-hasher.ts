import argon2 from 'argon2';
import { hmac } from './crypto.ts';

// D8: argon2id over HMAC-SHA256(pepper, PIN). The pepper lives outside the database, so a stolen table
// alone cannot be brute-forced over the 10^6 PIN space. OWASP's argon2id minimum: 19 MiB, t=2, p=1.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export class PinHasher {
  #dummy: Promise<string> | undefined;
  constructor(private readonly pepper: Buffer) {}

  hash(pin: string): Promise<string> {
    return argon2.hash(hmac(this.pepper, pin), OPTIONS);
  }

  verify(hash: string, pin: string): Promise<boolean> {
    return argon2.verify(hash, hmac(this.pepper, pin));
  }

  /** Spend the same time as a real check, so an unknown phone is not told apart by latency. */
  async verifyNothing(pin: string): Promise<false> {
    this.#dummy ??= this.hash('unused-dummy');
    await this.verify(await this.#dummy, pin);
    return false;
  }
}
