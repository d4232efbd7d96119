// What the workers that send claimed rows share (webhook deliveries, D32; back-channel logouts): the
// loop that claims due rows as slots free, and the cap on the slots one receiver may hold.
import { addSeconds, type Clock } from '../providers/clock.ts';
import type { ClaimBounds } from '../storage/send-claims.ts';

/** How long a claim holds: well past the 10 s attempt timeout plus recording the result. */
export const CLAIM_LEASE_SECONDS = 60;

/**
 * The attempts one receiver (a webhook endpoint, a client's logout URI) may have in flight in one
 * process: a quarter of its slots. A receiver that accepts connections and never answers holds each slot for
 * the 10 s timeout; uncapped, its backlog took every slot and held up every other receiver for minutes, at
 * each retry wave again.
 */
export const slotsPerReceiver = (concurrency: number) => Math.max(1, Math.floor(concurrency / 4));

export interface SendLoopParts<T> {
  /** Takes rows due at `now` for this process until `lockedUntil` (a lease), within the bounds. */
  claim(now: Date, lockedUntil: Date, bounds: ClaimBounds): Promise<T[]>;
  /** One attempt and its record; never rejects (a failure to record leaves the claim to run out). */
  attempt(claimed: T): Promise<void>;
  receiverOf(claimed: T): string;
  clock: Clock;
  /** attempts in flight at once in this process */
  concurrency: number;
  /** how long an idle loop waits before it looks again without being told of new rows */
  pollMs: number;
  onClaimFailed(err: unknown): void;
}

/**
 * Claims due rows as slots free and makes their attempts, each receiver within its share of the slots. Every
 * instance runs one per kind of row; the claims in the database keep them apart.
 */
export class SendLoop<T> {
  readonly #inFlight = new Set<Promise<void>>();
  readonly #busy = new Map<string, number>();
  readonly #perReceiver: number;
  #running = false;
  #loop: Promise<void> = Promise.resolve();
  #wake: (() => void) | undefined;
  /** told of new rows while claiming: look again before sleeping */
  #told = false;

  constructor(private readonly p: SendLoopParts<T>) {
    this.#perReceiver = slotsPerReceiver(p.concurrency);
  }

  /**
   * Claims and sends what is due, waiting for each claim's attempts, until nothing is left due; answers how
   * many attempts were made.
   */
  async sendAllDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.#claim(this.p.concurrency - this.#inFlight.size);
      if (claimed.length === 0) return total;
      await Promise.all(claimed.map((c) => this.#launch(c)));
      total += claimed.length;
    }
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** New rows are due: claim at once rather than at the next poll. */
  tell(): void {
    this.#told = true;
    this.#wake?.();
  }

  /** Stops claiming and waits for the attempts in flight (graceful shutdown). */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wake?.();
    await this.#loop;
    await Promise.all(this.#inFlight);
  }

  async #run(): Promise<void> {
    while (this.#running) {
      const free = this.p.concurrency - this.#inFlight.size;
      let claimed: T[] = [];
      if (free > 0) {
        this.#told = false; // this claim sees what was told so far
        try {
          claimed = await this.#claim(free);
        } catch (err) {
          this.p.onClaimFailed(err);
        }
      }
      for (const c of claimed) void this.#launch(c);
      // A full claim means more may be due: claim again at once (or as soon as a slot frees).
      if (free > 0 && claimed.length === free) continue;
      await this.#sleep(free > 0 ? this.p.pollMs : undefined);
    }
  }

  #claim(limit: number): Promise<T[]> {
    const now = this.p.clock.now();
    return this.p.claim(now, addSeconds(now, CLAIM_LEASE_SECONDS), {
      limit,
      perReceiver: this.#perReceiver,
      busy: this.#busy,
    });
  }

  #launch(c: T): Promise<void> {
    const receiver = this.p.receiverOf(c);
    this.#busy.set(receiver, (this.#busy.get(receiver) ?? 0) + 1);
    const attempt: Promise<void> = this.p.attempt(c).finally(() => {
      this.#inFlight.delete(attempt);
      const left = (this.#busy.get(receiver) ?? 1) - 1;
      if (left > 0) this.#busy.set(receiver, left);
      else this.#busy.delete(receiver);
      // A freed slot, or a receiver back under its share: there may be more to claim.
      this.#wake?.();
    });
    this.#inFlight.add(attempt);
    return attempt;
  }

  /**
   * Waits `ms`, or (without it) until an attempt finishes; an attempt finishing, tell() (or a tell that came
   * while claiming) and stop() end the wait at once.
   */
  #sleep(ms: number | undefined): Promise<void> {
    if (ms !== undefined && this.#told) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      if (ms !== undefined) timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }
}
