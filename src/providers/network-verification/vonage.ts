import { createPrivateKey, type KeyObject, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { askVendor, type Deadline, deadlineIn, failureOf, fieldOf } from '../sim-check/sim-check.ts';
import {
  NETWORK_CHECK_DEADLINE_MS,
  type NetworkAnswer,
  NetworkRefusal,
  type NetworkVerifier,
} from './network-verifier.ts';

// Vonage Verify v2 silent authentication, as Vonage documents it:
// - A request whose workflow is the `silent_auth` channel alone (Callsign sends its own code when the network
//   cannot say), the number in E.164 without its "+", and a `redirect_url`: Callsign's callback, carrying the
//   check's state. Requests are authenticated by a JWT the application's private key signs (RS256, with
//   `application_id`, `iat`, `jti` and `exp`).
// - The device opens the answer's `check_url` over its mobile data and follows its redirects. They end at the
//   `redirect_url` with `#request_id=...&code=...`, or `#error_description=...` where the network could not
//   prove the number (its words: "Device MSISDN does not match." where the device holds another number).
// - The code is posted once to `POST /v2/verify/{request_id}`: `200 {status: "completed"}` proves the number.
// A 409 at the start (a verification already in flight for the number) or a 412 (the network takes no part)
// is `unavailable`; any other refusal, a malformed answer or no answer in time is `error`.

export interface VonageSilentAuthSettings {
  applicationId: string;
  /** the application's private key, in PEM */
  privateKeyPem: string;
  /** https://api.nexmo.com, or a local server in tests */
  apiUrl: string;
  /** the name shown where Vonage shows one: 1-18 characters */
  brand: string;
}

/** What a check keeps between sending the device out and its coming back. */
export interface VonagePending {
  requestId: string;
}

/** The JWT of one request lives this long. */
const JWT_SECONDS = 300;
/** Vonage's words at the redirect when the device holds another number. */
const OTHER_NUMBER = 'Device MSISDN does not match.';
/** What Vonage refuses in a brand. */
const NOT_IN_BRAND = /[/{}:$]/g;

export class VonageSilentAuth implements NetworkVerifier {
  readonly name = 'vonage' as const;
  readonly returns = 'fragment' as const;
  readonly #key: KeyObject;

  constructor(
    private readonly s: VonageSilentAuthSettings,
    private readonly now: () => Date,
    private readonly deadlineMs = NETWORK_CHECK_DEADLINE_MS,
  ) {
    this.#key = createPrivateKey(s.privateKeyPem);
  }

  /** A silent authentication request: its `check_url`, and its request id to keep. */
  async authorizationUrl(phone: string, redirectUri: string, state: string) {
    const back = new URL(redirectUri);
    back.searchParams.set('state', state);
    const brand = this.s.brand.replace(NOT_IN_BRAND, '').slice(0, 18) || 'Callsign';
    const workflow = [
      { channel: 'silent_auth', to: phone.replace(/^\+/, ''), redirect_url: back.toString() },
    ];
    const answer = await this.ask('/v2/verify', { brand, workflow }, deadlineIn(this.deadlineMs));
    const requestId = fieldOf(answer.body, 'request_id');
    const url = fieldOf(answer.body, 'check_url');
    if (answer.status === 202 && typeof requestId === 'string' && typeof url === 'string') {
      const pending: VonagePending = { requestId };
      return { url, pending };
    }
    const outcome = answer.status === 409 || answer.status === 412 ? 'unavailable' : 'error';
    throw new NetworkRefusal({ outcome, detail: `verify ${refusalOf(answer)}` });
  }

  /** The redirect's fragment, posted back: its code, submitted once, proves the number. */
  async finish(
    _phone: string,
    pendingKept: object,
    _redirectUri: string,
    callback: { request_id?: string; code?: string; error_description?: string },
  ): Promise<NetworkAnswer> {
    if (callback.error_description)
      return callback.error_description.trim() === OTHER_NUMBER
        ? { outcome: 'other_number' }
        : { outcome: 'unavailable', detail: callback.error_description.slice(0, 64) };
    const { requestId } = pendingKept as Partial<VonagePending>;
    if (!requestId || callback.request_id !== requestId)
      return { outcome: 'error', detail: 'the return names another request' };
    if (!callback.code) return { outcome: 'error', detail: 'no code at the return' };
    try {
      const path = `/v2/verify/${encodeURIComponent(requestId)}`;
      const answer = await this.ask(path, { code: callback.code }, deadlineIn(this.deadlineMs));
      if (answer.status === 200 && fieldOf(answer.body, 'status') === 'completed')
        return { outcome: 'verified' };
      return { outcome: 'error', detail: `check ${refusalOf(answer)}` };
    } catch (err) {
      return { outcome: 'error', detail: failureOf(err) };
    }
  }

  /** Vonage takes no operator tokens: the network cannot say, a code will. */
  async verifyOperatorToken(): Promise<NetworkAnswer> {
    return { outcome: 'unavailable', detail: 'no operator tokens' };
  }

  private async ask(path: string, body: object, deadline: Deadline) {
    return askVendor(
      `${this.s.apiUrl.replace(/\/$/, '')}${path}`,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await this.jwt()}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(body),
      },
      { deadline },
    );
  }

  /** The application's JWT for one request. */
  private jwt(): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000);
    return new SignJWT({ application_id: this.s.applicationId })
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
      .setIssuedAt(iat)
      .setJti(randomUUID())
      .setExpirationTime(iat + JWT_SECONDS)
      .sign(this.#key);
  }
}

/** Vonage's problem answer in a few words: its status and the last part of its type. */
function refusalOf(answer: { status: number; body: unknown }): string {
  const type = fieldOf(answer.body, 'type');
  const name = typeof type === 'string' ? type.split('#')[1] : undefined;
  return name ? `${answer.status} ${name}` : `${answer.status}`;
}
