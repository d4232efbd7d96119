import type { RateLimitName, RateLimits } from '../config/rate-limits.ts';
import type { Clock } from '../providers/clock.ts';
import { addressBucket } from './address-bucket.ts';
import { DomainError } from './errors.ts';

/** Where counters live: the database by default, Redis when configured. */
export interface RateCounterStore {
  /**
   * Adds `hits` to the count in the window starting at windowStart, atomically, and answers the count after
   * them: the hits were the count's last `hits`.
   */
  add(key: string, windowStart: Date, windowSeconds: number, hits: number): Promise<number>;
}

/** What the limiter counts with: one hit, and the count with it (P91: a store's hits, gathered). */
export interface RateCounter {
  hit(key: string, windowStart: Date, windowSeconds: number): Promise<number>;
  /** the count so far, adding nothing */
  count(key: string, windowStart: Date, windowSeconds: number): Promise<number>;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetAt: Date;
}

/**
 * RATE_LIMITED from a named limit: `details.scope` names it as operators set it in RATE_LIMITS, and the limit's
 * own state goes on the answer's X-RateLimit-* headers, whatever other limit the request was counted against.
 */
export class RateLimitExceeded extends DomainError {
  constructor(
    scope: string,
    readonly limitState: RateLimitState,
    retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', 'too many requests; try again later', {
      scope,
      retry_after: limitState.resetAt.toISOString(),
      retry_after_seconds: retryAfterSeconds,
    });
  }
}

/**
 * Fixed windows aligned to the epoch, so every instance (and the injected clock in tests) agrees on
 * which window a hit falls in.
 */
export class RateLimiter {
  constructor(
    private readonly counter: RateCounter,
    private readonly rules: RateLimits,
    private readonly clock: Clock,
  ) {}

  /**
   * Whether a limit that counts only failures is used up already, counting nothing: checked before the
   * request is tried, so a guess past the limit is refused before anyone learns whether it was right.
   */
  async reached(name: RateLimitName, subject: string): Promise<RateLimitExceeded | null> {
    const now = this.clock.now().getTime();
    const { limit, windowSeconds, key, start, resetAt } = this.#window(name, subject, now);
    const count = await this.counter.count(key, start, windowSeconds);
    if (count < limit) return null;
    const retryAfterSeconds = Math.max(1, Math.ceil((resetAt.getTime() - now) / 1000));
    return new RateLimitExceeded(name, { limit, remaining: 0, resetAt }, retryAfterSeconds);
  }

  /**
   * The counter a limit keeps for a subject at `now`: fixed windows aligned to the epoch, and a limit named per
   * address counts the address's bucket (an IPv6 client by its /64).
   */
  #window(name: RateLimitName, subject: string, now: number) {
    const { limit, windowSeconds } = this.rules[name];
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const bucket = name.endsWith('_address') ? addressBucket(subject) : subject;
    const key = `${name}:${bucket}`;
    return { limit, windowSeconds, key, start: new Date(start), resetAt: new Date(start + windowMs) };
  }

  /**
   * Counts one hit against each named limit. Answers the state with the fewest requests remaining (its
   * headers go on the answer, D28) and whether any limit is exceeded.
   */
  async hit(
    subjects: Array<[RateLimitName, string]>,
  ): Promise<{ state: RateLimitState; exceeded: RateLimitExceeded | null }> {
    const now = this.clock.now().getTime();
    const results = await Promise.all(
      subjects.map(async ([name, subject]) => {
        const { limit, windowSeconds, key, start, resetAt } = this.#window(name, subject, now);
        const count = await this.counter.hit(key, start, windowSeconds);
        return { name, limit, remaining: Math.max(0, limit - count), resetAt, over: count > limit };
      }),
    );
    const state = results.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    const over = results.filter((r) => r.over);
    if (!over.length) return { state, exceeded: null };
    // The limit that refused is the one whose window ends last: it decides when a request may come again.
    const refusing = over.reduce((a, b) => (b.resetAt > a.resetAt ? b : a));
    const retryAfterSeconds = Math.max(1, Math.ceil((refusing.resetAt.getTime() - now) / 1000));
    const refusedState = { limit: refusing.limit, remaining: 0, resetAt: refusing.resetAt };
    return {
      state: refusedState,
      exceeded: new RateLimitExceeded(refusing.name, refusedState, retryAfterSeconds),
    };
  }
}
