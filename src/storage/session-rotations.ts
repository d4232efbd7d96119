import { Coalescer, type Outcome } from './coalescer.ts';
import type { Database } from './db.ts';
import { type RotatedSession, type Rotation, sessionsRepo } from './repositories/sessions.ts';

/**
 * P79: this process's refresh-token rotations (D16), written in batches: the refreshes that arrive together
 * cost PostgreSQL one statement and one commit, and the service one round trip. Each answers exactly what
 * `sessionsRepo.rotate` would: the session if this rotation moved its chain, undefined otherwise.
 */
export class SessionRotations {
  readonly #batches: Coalescer<Rotation, RotatedSession | undefined>;

  constructor(private readonly db: Database) {
    this.#batches = new Coalescer(
      (rs) => this.#together(rs),
      (r) => this.#alone(r),
      // 32 fills a batch when 64 requests are in flight on two processes; two batches keep PostgreSQL
      // working while the service reads the other's answer.
      { maxBatch: 32, concurrency: 2 },
    );
  }

  rotate(r: Rotation): Promise<RotatedSession | undefined> {
    return this.#batches.call(r);
  }

  /** One statement of its own, which waits for a row lock held elsewhere. */
  #alone(r: Rotation) {
    return sessionsRepo.rotate(this.db, r);
  }

  async #together(rs: Rotation[]): Promise<Outcome<RotatedSession | undefined>[]> {
    // A session in the batch twice (the same token, D16's concurrent duplicate, or a stale one beside its
    // head) is moved at most once: only its live head matches, and a row is modified once per statement.
    const moved = await sessionsRepo.rotateMany(this.db, rs);
    // Not moved here (its row held by another transaction, or not the live head: a repeat, reuse, an expired
    // chain): on its own, as a lone rotation would be, waiting for the lock and answering why not. The batch
    // moves nearly every chain it is given.
    return rs.map((r, i) => moved[i] ?? this.#alone(r));
  }
}
