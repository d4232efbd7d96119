import {
  askVendor,
  type Deadline,
  dateOf,
  deadlineIn,
  deadlinePassed,
  failureOf,
  fieldOf,
  type RecyclingAnswer,
  refusalOf,
  SIM_CHECK_DEADLINE_MS,
  type SimCheckProvider,
  type SwapAnswer,
  VendorRefusal,
} from './sim-check.ts';

export interface CamaraSettings {
  apiRoot: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
}

/** The scopes the token is asked for: both SIM Swap operations and the recycling check. */
const SCOPES = 'sim-swap:check sim-swap:retrieve-date number-recycling:check';
/** A token is used until this long before it expires. */
const TOKEN_MARGIN_SECONDS = 30;

/**
 * GSMA CAMARA through an operator or an aggregator: SIM Swap v2 (`check`, `retrieve-date`) and Number
 * Recycling v0.2, with an access token by OAuth client credentials (`client_secret_basic`), kept until shortly
 * before it expires. CAMARA's error answers (`{status, code, message}`) are unknown.
 *
 * One deadline covers a whole check, however many calls it takes (a token, the check, the swap's date): past
 * it the answer is unknown. A swap the check reported stays a swap when no time is left to ask its date.
 */
export class CamaraSimCheck implements SimCheckProvider {
  readonly name = 'camara' as const;
  #token: { value: string; until: number } | undefined;
  #pending: Promise<string> | undefined;

  constructor(
    private readonly s: CamaraSettings,
    private readonly now: () => Date,
    private readonly deadlineMs = SIM_CHECK_DEADLINE_MS,
  ) {}

  async swappedWithin(phone: string, maxAgeHours: number): Promise<SwapAnswer> {
    const deadline = deadlineIn(this.deadlineMs);
    try {
      const body = { phoneNumber: phone, maxAge: maxAgeHours };
      const answer = await this.call('/sim-swap/v2/check', body, deadline);
      const swapped = fieldOf(answer.body, 'swapped');
      if (answer.status !== 200 || typeof swapped !== 'boolean')
        return { outcome: 'unknown', detail: refusalOf(answer) };
      if (!swapped) return { outcome: 'not_swapped' };
      return { outcome: 'swapped', lastSwapAt: await this.latestChange(phone, deadline) };
    } catch (err) {
      return { outcome: 'unknown', detail: failureOf(err) };
    }
  }

  async recycledSince(phone: string, since: Date): Promise<RecyclingAnswer> {
    const deadline = deadlineIn(this.deadlineMs);
    try {
      const body = { phoneNumber: phone, specifiedDate: since.toISOString().slice(0, 10) };
      const answer = await this.call('/number-recycling/v0.2/check', body, deadline);
      const recycled = fieldOf(answer.body, 'phoneNumberRecycled');
      if (answer.status !== 200 || typeof recycled !== 'boolean')
        return { outcome: 'unknown', detail: refusalOf(answer) };
      return { outcome: recycled ? 'recycled' : 'not_recycled' };
    } catch (err) {
      return { outcome: 'unknown', detail: failureOf(err) };
    }
  }

  /** When the SIM last changed, for the operators' view; undefined when the operator does not say. */
  private async latestChange(phone: string, deadline: Deadline): Promise<Date | null | undefined> {
    const answer = await this.call('/sim-swap/v2/retrieve-date', { phoneNumber: phone }, deadline).catch(
      () => undefined,
    );
    if (answer?.status !== 200) return undefined;
    const latest = fieldOf(answer.body, 'latestSimChange');
    return latest === null ? null : dateOf(latest);
  }

  private async call(path: string, body: object, deadline: Deadline) {
    const token = await this.token(deadline);
    return askVendor(
      `${this.s.apiRoot}${path}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      { deadline },
    );
  }

  /**
   * The cached token, or one new one however many calls wait for it. A call asked for it by another check
   * is waited for only until this check's own deadline.
   */
  private token(deadline: Deadline): Promise<string> {
    if (this.#token && this.#token.until > this.now().getTime()) return Promise.resolve(this.#token.value);
    this.#pending ??= this.newToken(deadline).finally(() => {
      this.#pending = undefined;
    });
    return untilDeadline(this.#pending, deadline);
  }

  private async newToken(deadline: Deadline): Promise<string> {
    const basic = Buffer.from(
      `${encodeURIComponent(this.s.clientId)}:${encodeURIComponent(this.s.clientSecret)}`,
    ).toString('base64');
    const answer = await askVendor(
      this.s.tokenUrl,
      {
        method: 'POST',
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: SCOPES }).toString(),
      },
      { deadline },
    );
    const value = fieldOf(answer.body, 'access_token');
    const expiresIn = fieldOf(answer.body, 'expires_in');
    if (answer.status !== 200 || typeof value !== 'string')
      throw new VendorRefusal(`token ${refusalOf(answer)}`);
    const lifetime = typeof expiresIn === 'number' ? expiresIn : 0;
    this.#token = { value, until: this.now().getTime() + (lifetime - TOKEN_MARGIN_SECONDS) * 1000 };
    return value;
  }
}

/** The promise's outcome, or the deadline's TimeoutError if that comes first. */
function untilDeadline<T>(promise: Promise<T>, deadline: Deadline): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(deadlinePassed()), Math.max(0, deadline - performance.now()));
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
