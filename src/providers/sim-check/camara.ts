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
    try {
      const answer = await this.call('/sim-swap/v2/check', { phoneNumber: phone, maxAge: maxAgeHours });
      const swapped = fieldOf(answer.body, 'swapped');
      if (answer.status !== 200 || typeof swapped !== 'boolean')
        return { outcome: 'unknown', detail: refusalOf(answer) };
      if (!swapped) return { outcome: 'not_swapped' };
      return { outcome: 'swapped', lastSwapAt: await this.latestChange(phone) };
    } catch (err) {
      return { outcome: 'unknown', detail: failureOf(err) };
    }
  }

  async recycledSince(phone: string, since: Date): Promise<RecyclingAnswer> {
    try {
      const specifiedDate = since.toISOString().slice(0, 10);
      const answer = await this.call('/number-recycling/v0.2/check', { phoneNumber: phone, specifiedDate });
      const recycled = fieldOf(answer.body, 'phoneNumberRecycled');
      if (answer.status !== 200 || typeof recycled !== 'boolean')
        return { outcome: 'unknown', detail: refusalOf(answer) };
      return { outcome: recycled ? 'recycled' : 'not_recycled' };
    } catch (err) {
      return { outcome: 'unknown', detail: failureOf(err) };
    }
  }

  /** When the SIM last changed, for the operators' view; undefined when the operator does not say. */
  private async latestChange(phone: string): Promise<Date | null | undefined> {
    const answer = await this.call('/sim-swap/v2/retrieve-date', { phoneNumber: phone }).catch(
      () => undefined,
    );
    if (answer?.status !== 200) return undefined;
    const latest = fieldOf(answer.body, 'latestSimChange');
    return latest === null ? null : dateOf(latest);
  }

  private async call(path: string, body: object) {
    const token = await this.token();
    return askVendor(
      `${this.s.apiRoot}${path}`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      this.deadlineMs,
    );
  }

  /** The cached token, or one new one however many calls wait for it. */
  private token(): Promise<string> {
    if (this.#token && this.#token.until > this.now().getTime()) return Promise.resolve(this.#token.value);
    this.#pending ??= this.newToken().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  private async newToken(): Promise<string> {
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
      this.deadlineMs,
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
