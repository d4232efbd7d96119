import {
  askVendor,
  dateOf,
  failureOf,
  fieldOf,
  refusalOf,
  SIM_CHECK_DEADLINE_MS,
  type SimCheckProvider,
  type SwapAnswer,
} from './sim-check.ts';

export interface TwilioLookupSettings {
  lookupUrl: string;
  accountSid: string;
  authToken: string;
}

/** An ISO 8601 period of hours or days (`PT48H`, `P7D`), in hours. */
function periodHours(period: unknown): number | undefined {
  if (typeof period !== 'string') return undefined;
  const m = /^P(?:(\d+)D)?(?:T(\d+)H)?$/.exec(period);
  if (!m || (!m[1] && !m[2])) return undefined;
  return Number(m[1] ?? 0) * 24 + Number(m[2] ?? 0);
}

/**
 * Twilio Lookup v2's SIM Swap (`Fields=sim_swap`, HTTP Basic with the account SID and auth token). Where the
 * carrier gives the last swap's date it is compared with the window; otherwise `swapped_in_period` counts only
 * over a `swapped_period` that answers for the window: a swap within a period no longer than the window, no
 * swap within a period at least as long. A `null`, an `error_code` or any other answer is unknown. Twilio has
 * no recycling check.
 */
export class TwilioSimCheck implements SimCheckProvider {
  readonly name = 'twilio' as const;
  constructor(
    private readonly s: TwilioLookupSettings,
    private readonly now: () => Date,
    private readonly deadlineMs = SIM_CHECK_DEADLINE_MS,
  ) {}

  async swappedWithin(phone: string, maxAgeHours: number): Promise<SwapAnswer> {
    try {
      const basic = Buffer.from(`${this.s.accountSid}:${this.s.authToken}`).toString('base64');
      const answer = await askVendor(
        `${this.s.lookupUrl}/v2/PhoneNumbers/${encodeURIComponent(phone)}?Fields=sim_swap`,
        { method: 'GET', headers: { authorization: `Basic ${basic}` } },
        { ms: this.deadlineMs },
      );
      if (answer.status !== 200) return { outcome: 'unknown', detail: refusalOf(answer) };
      return this.read(fieldOf(answer.body, 'sim_swap'), maxAgeHours);
    } catch (err) {
      return { outcome: 'unknown', detail: failureOf(err) };
    }
  }

  private read(simSwap: unknown, maxAgeHours: number): SwapAnswer {
    const error = fieldOf(simSwap, 'error_code');
    if (error !== undefined && error !== null) return { outcome: 'unknown', detail: `error_code ${error}` };
    const last = fieldOf(simSwap, 'last_sim_swap');
    if (!last) return { outcome: 'unknown', detail: 'no sim_swap data' };
    const lastSwapAt = dateOf(fieldOf(last, 'last_sim_swap_date'));
    if (lastSwapAt) {
      const within = this.now().getTime() - lastSwapAt.getTime() <= maxAgeHours * 3600_000;
      return { outcome: within ? 'swapped' : 'not_swapped', lastSwapAt };
    }
    const period = periodHours(fieldOf(last, 'swapped_period'));
    const inPeriod = fieldOf(last, 'swapped_in_period');
    if (period === undefined || typeof inPeriod !== 'boolean')
      return { outcome: 'unknown', detail: 'no swapped_period' };
    if (inPeriod && period <= maxAgeHours) return { outcome: 'swapped' };
    if (!inPeriod && period >= maxAgeHours) return { outcome: 'not_swapped' };
    return { outcome: 'unknown', detail: `swapped_period ${period}h does not answer for ${maxAgeHours}h` };
  }
}
