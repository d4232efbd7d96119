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
    // A session appears once in the statement (a row is updated once per statement). The same token
    // presented twice shares its answer, as D16 wants of a concurrent duplicate; another token of a session
    // already in the batch goes on its own afterwards.
    const place = new Map<string, number>();
    const distinct: Rotation[] = [];
    for (const r of rs) {
      if (place.has(r.id)) continue;
      place.set(r.id, distinct.length);
      distinct.push(r);
    }
    const results = await sessionsRepo.rotateMany(this.db, distinct);
    return rs.map((r) => {
      const i = place.get(r.id) as number;
      const d = distinct[i];
      const same = d.clientId === r.clientId && d.generation === r.generation && d.hash === r.hash;
      // Skipped (another transaction holds the row, or the row is gone) or not this token: on its own, as
      // a lone rotation would be, waiting for the lock.
      return same && results[i].held ? results[i].rotated : this.#alone(r);
    });
  }
}
