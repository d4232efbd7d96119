// A provider that keeps failing is set aside for a while, so an outage doesn't add a timeout to every send.
//
// Rules it enforces:
// - A provider that failed FAILURES_BEFORE_SKIP times in a row is skipped for SKIP_SECONDS (by the service's
//   clock), then tried again; one success clears its count.
// - Each process keeps its own count: a provider is set aside by the sends that met its failures.
import type { Clock } from '../../providers/clock.ts';

export const FAILURES_BEFORE_SKIP = 5;
export const SKIP_SECONDS = 60;

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

  /** Counts a failure; answers true when it sets the provider aside. */
  failed(provider: string): boolean {
    const failures = (this.#failures.get(provider) ?? 0) + 1;
    this.#failures.set(provider, failures);
    if (failures < FAILURES_BEFORE_SKIP) return false;
    this.#failures.delete(provider);
    this.#skippedUntil.set(provider, this.clock.now().getTime() + SKIP_SECONDS * 1000);
    return true;
  }
}
