import type { Database } from '../db.ts';
import { type AuthorizationCodeRow, authorizationCodesRepo } from '../repositories/authorization-codes.ts';
import { type CodeExchangeOutcome, type CodeRedemption, exchangeCodes } from '../rules/code-exchange.ts';
import { Coalescer } from './coalescer.ts';

// 32 a batch, two at once: as P79's rotations (64 exchanges in flight on two processes fill them).
const LIMITS = { maxBatch: 32, concurrency: 2 };

/**
 * This process's authorization-code exchanges, read and written in batches (its coalescer): the
 * exchanges that arrive together cost PostgreSQL one read and one write statement, and the service one round
 * trip each. Each is answered exactly as it would be alone.
 */
export class CodeExchanges {
  readonly #reads: Coalescer<string, AuthorizationCodeRow | undefined>;
  readonly #redemptions: Coalescer<CodeRedemption, CodeExchangeOutcome>;

  constructor(db: Database) {
    this.#reads = new Coalescer(
      async (hashes) => {
        const byHash = new Map(
          (await authorizationCodesRepo.findMany(db, hashes)).map((r) => [r.code_hash, r]),
        );
        return hashes.map((h) => byHash.get(h));
      },
      (hash) => authorizationCodesRepo.find(db, hash),
      LIMITS,
    );
    this.#redemptions = new Coalescer(
      (exchanges) => exchangeCodes(db, exchanges),
      async (exchange) => (await exchangeCodes(db, [exchange]))[0],
      LIMITS,
    );
  }

  /** The code of this hash, as issued (its fields never change) and as last used. */
  find(hash: string): Promise<AuthorizationCodeRow | undefined> {
    return this.#reads.call(hash);
  }

  /** D24's race gate: the code's first use opens the session; any later use is refused as a used code. */
  redeem(exchange: CodeRedemption): Promise<CodeExchangeOutcome> {
    return this.#redemptions.call(exchange);
  }
}
