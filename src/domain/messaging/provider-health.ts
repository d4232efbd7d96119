// A provider that keeps failing is set aside for a while, so an outage doesn't add a timeout to every send.
//
// Rules it enforces:
// - A provider that failed FAILURES_BEFORE_SKIP times in a row is skipped for SKIP_SECONDS (by the service's
//   clock), then tried again; one success clears its count.
// - A provider that asks for a pause (Retry-After on its throttling or outage answer) is skipped at once for that
//   long, at most MAX_PAUSE_SECONDS (a vendor's mistaken hour-long pause must not take a route down for a day).
// - Only the provider's own failures count: no answer, a timeout, a 5xx, its throttling (429). A refusal of one
//   message (a 4xx for a number or country the vendor will not take, a refusal status in its answer) does
//   not: that message goes on to the next route, and the provider stays in use for everyone else.
// - Each process keeps its own count: a provider is set aside by the sends that met its failures.
import type { Clock } from '../../providers/clock.ts';
import type { ProviderFailure } from '../../providers/messaging/provider.ts';

export const FAILURES_BEFORE_SKIP = 5;
export const SKIP_SECONDS = 60;
export const MAX_PAUSE_SECONDS = 900;

export class ProviderHealth {
  readonly #failures = new Map<string, number>();
  readonly #skippedUntil = new Map<string, number>();
  constructor(private readonly clock: Clock) {}

  /** Whether sends should try the provider now. */
  usable(provider: string): boolean {
    return (this.#skippedUntil.get(provider) ?? 0) <= this.clock.now().getTime();
  }

  succeeded(provider: string): void {
    this.#failures.delete(provider);
    this.#skippedUntil.delete(provider);
  }

  /**
   * Counts a failure of the provider's own, or sets it aside for the pause it asked for; answers true when it
   * sets the provider aside.
   */
  failed(provider: string, failure: ProviderFailure, pauseSeconds?: number): boolean {
    if (failure === 'refused') return false;
    if (pauseSeconds !== undefined && pauseSeconds > 0) {
      this.#failures.delete(provider);
      const pause = Math.min(pauseSeconds, MAX_PAUSE_SECONDS);
      this.#skippedUntil.set(provider, this.clock.now().getTime() + pause * 1000);
      return true;
    }
    const failures = (this.#failures.get(provider) ?? 0) + 1;
    this.#failures.set(provider, failures);
    if (failures < FAILURES_BEFORE_SKIP) return false;
    this.#failures.delete(provider);
    this.#skippedUntil.set(provider, this.clock.now().getTime() + SKIP_SECONDS * 1000);
    return true;
  }
}
