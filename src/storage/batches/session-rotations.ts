import type { Database } from '../db.ts';
import {
  type Rotation,
  type RotationOutcome,
  rotateRefreshToken,
  rotateRefreshTokens,
} from '../rules/refresh-rotation.ts';
import { Coalescer, type Outcome } from './coalescer.ts';

/**
 * This process's refresh-token rotations, written in batches: the refreshes that arrive together cost
 * PostgreSQL one statement and one commit, and the service one round trip. Each answers exactly what
 * `rotateRefreshToken` would alone: the session if this rotation moved its chain, or why not.
 */
export class SessionRotations {
  readonly #batches: Coalescer<Rotation, RotationOutcome>;

  constructor(private readonly db: Database) {
    this.#batches = new Coalescer(
      (rs) => this.#together(rs),
      (r) => this.#alone(r),
      // 32 fills a batch when 64 requests are in flight on two processes; two batches keep PostgreSQL
      // working while the service reads the other's answer.
      { maxBatch: 32, concurrency: 2 },
    );
  }

  rotate(r: Rotation): Promise<RotationOutcome> {
    return this.#batches.call(r);
  }

  /** One statement of its own, which waits for a row lock held elsewhere. */
  #alone(r: Rotation) {
    return rotateRefreshToken(this.db, r);
  }

  async #together(rs: Rotation[]): Promise<Outcome<RotationOutcome>[]> {
    // A session in the batch twice (the same token, a concurrent duplicate, or a stale one beside its head) is
    // moved at most once: only its live head matches, and a row is modified once per statement.
    const moved = await rotateRefreshTokens(this.db, rs);
    // Not moved here (its row held by another transaction, or not the live head: a repeat, reuse, an expired
    // chain): on its own, as a lone rotation would be, waiting for the lock and answering why not. The batch
    // moves nearly every chain it is given.
    return rs.map((r, i) => {
      const session = moved[i];
      return session ? { rotated: true as const, session } : this.#alone(r);
    });
  }
}
