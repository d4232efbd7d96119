import { askVendor, deadlineIn, failureOf, fieldOf, refusalOf } from '../sim-check/sim-check.ts';
import {
  NETWORK_CHECK_DEADLINE_MS,
  type NetworkAnswer,
  NetworkRefusal,
  type NetworkVerifier,
  type NotYet,
} from './network-verifier.ts';

// Twilio Verify's Silent Network Auth, as Twilio documents it (HTTP Basic with the account SID and auth token,
// forms in, JSON out):
// - `POST /v2/Services/{ServiceSid}/Verifications` with `To` (E.164) and `Channel=sna` answers `sna.url`.
// - The device opens that URL over its mobile data. It ends on Twilio's own page and does not come back to
//   Callsign: the app then completes, and Callsign runs the Verification Check.
// - `POST /v2/Services/{ServiceSid}/VerificationCheck` with `To`: `status: approved` proves the number; a
//   pending check whose `sna_attempts_error_codes` holds 60500 means the device holds another number, 60519
//   that the device has not finished yet; any other SNA error means the network could not say.
// A refusal at the start is `error`; a 404 at the check (the verification expired or was used) is `error`.

export interface TwilioSnaSettings {
  /** https://verify.twilio.com, or a local server in tests */
  apiUrl: string;
  accountSid: string;
  authToken: string;
  serviceSid: string;
}

/** What a check keeps between its start and the app's completion. */
export interface TwilioPending {
  verificationSid: string;
}

/** Twilio's SNA error: the device holds another number. */
const PHONE_NUMBER_MISMATCH = 60500;
/** Twilio's SNA error: the device has not finished the check yet. */
const RESULT_PENDING = 60519;

export class TwilioSilentNetworkAuth implements NetworkVerifier {
  readonly name = 'twilio' as const;
  readonly returns = 'none' as const;

  constructor(
    private readonly s: TwilioSnaSettings,
    private readonly deadlineMs = NETWORK_CHECK_DEADLINE_MS,
  ) {}

  /** An SNA verification: the URL the device must open, and the verification's SID to keep. */
  async authorizationUrl(phone: string) {
    const answer = await this.ask('Verifications', { To: phone, Channel: 'sna' });
    const verificationSid = fieldOf(answer.body, 'sid');
    const url = fieldOf(fieldOf(answer.body, 'sna'), 'url');
    if (answer.status === 201 && typeof verificationSid === 'string' && typeof url === 'string') {
      const pending: TwilioPending = { verificationSid };
      return { url, pending };
    }
    throw new NetworkRefusal({ outcome: 'error', detail: `verifications ${refusalOf(answer)}` });
  }

  /** The Verification Check of the number: proven, another number, not yet, or the network could not say. */
  async finish(phone: string): Promise<NetworkAnswer | NotYet> {
    try {
      const answer = await this.ask('VerificationCheck', { To: phone });
      const status = fieldOf(answer.body, 'status');
      if (answer.status !== 200 || typeof status !== 'string')
        return { outcome: 'error', detail: `check ${refusalOf(answer)}` };
      if (status === 'approved') return { outcome: 'verified' };
      const attempts = fieldOf(answer.body, 'sna_attempts_error_codes');
      const codes = Array.isArray(attempts) ? attempts.map((a) => Number(fieldOf(a, 'code'))) : [];
      const last = codes.at(-1);
      if (codes.includes(PHONE_NUMBER_MISMATCH)) return { outcome: 'other_number' };
      if (status === 'pending' && (last === undefined || last === RESULT_PENDING))
        return { outcome: 'not_yet' };
      return { outcome: 'unavailable', detail: `${status}${last ? ` ${last}` : ''}` };
    } catch (err) {
      return { outcome: 'error', detail: failureOf(err) };
    }
  }

  /** Twilio takes no operator tokens: the network cannot say, a code will. */
  async verifyOperatorToken(): Promise<NetworkAnswer> {
    return { outcome: 'unavailable', detail: 'no operator tokens' };
  }

  private ask(resource: string, form: Record<string, string>) {
    const basic = Buffer.from(`${this.s.accountSid}:${this.s.authToken}`).toString('base64');
    const root = this.s.apiUrl.replace(/\/$/, '');
    return askVendor(
      `${root}/v2/Services/${encodeURIComponent(this.s.serviceSid)}/${resource}`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${basic}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams(form).toString(),
      },
      { deadline: deadlineIn(this.deadlineMs) },
    );
  }
}
