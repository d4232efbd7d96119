import {
  askVendor,
  dateOf,
  failureOf,
  fieldOf,
  type RecyclingAnswer,
  refusalOf,
  SIM_CHECK_DEADLINE_MS,
  type SimCheckProvider,
  type SwapAnswer,
} from './sim-check.ts';

/** The answer's fields the operator's service gives; anything else is unknown. */
interface HttpCheckAnswer {
  swapped?: boolean | null;
  last_swap_at?: Date | null;
  recycled?: boolean | null;
}

/**
 * An operator's own service (in-house, or another vendor's behind it): `POST SIM_CHECK_HTTP_URL` with
 * `{phone, max_age_hours, specified_date?}` answers `{swapped, last_swap_at?, recycled?}`, each `null` where it
 * does not know.
 */
export class HttpSimCheck implements SimCheckProvider {
  readonly name = 'http' as const;
  constructor(
    private readonly url: string,
    private readonly swapHours: number,
    private readonly deadlineMs = SIM_CHECK_DEADLINE_MS,
  ) {}

  async swappedWithin(phone: string, maxAgeHours: number): Promise<SwapAnswer> {
    const answer = await this.ask({ phone, max_age_hours: maxAgeHours });
    if ('detail' in answer) return { outcome: 'unknown', detail: answer.detail };
    if (typeof answer.swapped !== 'boolean') return { outcome: 'unknown', detail: 'swapped is null' };
    return { outcome: answer.swapped ? 'swapped' : 'not_swapped', lastSwapAt: answer.last_swap_at };
  }

  async recycledSince(phone: string, since: Date): Promise<RecyclingAnswer> {
    const specified_date = since.toISOString().slice(0, 10);
    const answer = await this.ask({ phone, max_age_hours: this.swapHours, specified_date });
    if ('detail' in answer) return { outcome: 'unknown', detail: answer.detail };
    if (typeof answer.recycled !== 'boolean') return { outcome: 'unknown', detail: 'recycled is null' };
    return { outcome: answer.recycled ? 'recycled' : 'not_recycled' };
  }

  private async ask(body: object): Promise<HttpCheckAnswer | { detail: string }> {
    try {
      const answer = await askVendor(
        this.url,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
        { ms: this.deadlineMs },
      );
      if (answer.status !== 200) return { detail: refusalOf(answer) };
      const swapped = fieldOf(answer.body, 'swapped');
      const recycled = fieldOf(answer.body, 'recycled');
      const lastSwap = fieldOf(answer.body, 'last_swap_at');
      return {
        swapped: typeof swapped === 'boolean' ? swapped : null,
        recycled: typeof recycled === 'boolean' ? recycled : null,
        last_swap_at: lastSwap === null ? null : dateOf(lastSwap),
      };
    } catch (err) {
      return { detail: failureOf(err) };
    }
  }
}
