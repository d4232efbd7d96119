import type { Logger } from 'pino';
import { addSeconds, type Clock } from '../providers/clock.ts';
import type { Database } from '../storage/db.ts';
import { jobsRepo } from '../storage/repositories/jobs.ts';

/** A periodic job; what its run answers (counts, mostly) goes into its log line. */
export interface Job<Result extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  everySeconds: number;
  run(now: Date): Promise<Result>;
}

/** Work every instance does continuously (webhook delivery), claimed item by item rather than run by run. */
export interface Loop {
  start(): void;
  stop(): Promise<void>;
}

/**
 * Runs periodic jobs on the injected clock, and the continuous loops. Each due run is claimed in the database first, so with
 * several instances (or cluster workers) a run happens once. Tests call tick() after moving the clock.
 */
export class WorkerRunner {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly jobs: Job[],
    private readonly loops: Loop[] = [],
  ) {}

  /** Runs every due job once; answers the names of the jobs this instance ran. */
  tick(): Promise<string[]> {
    const run = this.#running.then(async () => {
      const ran: string[] = [];
      for (const job of this.jobs) {
        const now = this.clock.now();
        if (!(await jobsRepo.claim(this.db, job.name, now, addSeconds(now, job.everySeconds)))) continue;
        const started = performance.now();
        try {
          const result = await job.run(now);
          await jobsRepo.finished(this.db, job.name, this.clock.now());
          const ms = Math.round(performance.now() - started);
          this.logger.info({ job: job.name, ...result, ms }, 'job finished');
          ran.push(job.name);
        } catch (err) {
          this.logger.error({ err, job: job.name }, 'job failed; it runs again when next due');
        }
      }
      return ran;
    });
    this.#running = run.catch(() => {});
    return run;
  }

  start(pollMs = 5000): void {
    this.#timer = setInterval(() => {
      this.tick().catch((err) => this.logger.error({ err }, 'worker tick failed'));
    }, pollMs);
    this.#timer.unref();
    for (const loop of this.loops) loop.start();
  }

  /** Stops polling and waits for the job and the loops' work in flight (graceful shutdown). */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all([this.#running, ...this.loops.map((l) => l.stop())]);
  }
}
