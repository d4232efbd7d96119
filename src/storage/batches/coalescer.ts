/** A call's outcome as a batch answers it: a value, or a promise of its own (settled apart from the others). */
export type Outcome<O> = O | Promise<O>;

/**
 * Calls made in the same turn of the event loop, run together as one batch (one statement, one round
 * trip, one commit instead of one each). At most `concurrency` batches run at once, each of at most
 * `maxBatch` calls; calls that arrive meanwhile wait for the next batch, so under load the batches grow
 * instead of the queue of statements. A batch that fails is run again one call at a time (`one`), so a
 * call that cannot succeed fails alone.
 */
export class Coalescer<I, O> {
  #pending: Array<{ item: I; resolve: (o: Outcome<O>) => void }> = [];
  #running = 0;
  #scheduled = false;

  constructor(
    private readonly together: (items: I[]) => Promise<Outcome<O>[]>,
    private readonly one: (item: I) => Promise<O>,
    private readonly limits: { maxBatch: number; concurrency: number },
  ) {}

  call(item: I): Promise<O> {
    return new Promise<O>((resolve) => {
      this.#pending.push({ item, resolve });
      this.#schedule();
    });
  }

  #schedule() {
    if (this.#scheduled || this.#running >= this.limits.concurrency || this.#pending.length === 0) return;
    this.#scheduled = true;
    // After the I/O callbacks of this turn, so that every call they made joins the batch.
    setImmediate(() => {
      this.#scheduled = false;
      void this.#run(this.#pending.splice(0, this.limits.maxBatch));
      this.#schedule();
    });
  }

  async #run(batch: Array<{ item: I; resolve: (o: Outcome<O>) => void }>) {
    this.#running++;
    try {
      const outcomes = await this.together(batch.map((c) => c.item));
      for (const [i, c] of batch.entries()) c.resolve(outcomes[i]);
    } catch {
      // Each on its own, settled apart: even a `one` that throws at once fails only its own call.
      for (const c of batch) c.resolve(Promise.resolve(c.item).then(this.one));
    } finally {
      this.#running--;
      this.#schedule();
    }
  }
}
