import { randomBytes } from 'node:crypto';
import { FakeNetworkVendor, type Incoming, refuse, send } from './fake-network-vendor.ts';

// Twilio Verify's Silent Network Auth on 127.0.0.1, as Twilio documents it: HTTP Basic with the account SID
// and auth token, forms in and JSON out, a verification started with `To` (E.164) and `Channel=sna` answering
// `sna.url`, the device opening that URL (from its address: the number it holds, or Wi-Fi) and ending on
// Twilio's own page, and the Verification Check by `To`: approved (and the verification deleted), or pending
// with the SNA attempts' error codes (60500 another number, 60510 not on mobile data, 60519 not finished yet).

const E164 = /^\+[1-9][0-9]{4,14}$/;
const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

interface Verification {
  sid: string;
  to: string;
  /** what the device's visit found: unset until it opens the URL */
  result?: 'match' | 60500 | 60510;
}

export class FakeTwilioVerify extends FakeNetworkVendor {
  readonly #byTo = new Map<string, Verification>();
  readonly #byUrl = new Map<string, Verification>();

  constructor(
    private readonly account: { accountSid: string; authToken: string; serviceSid: string },
    now?: () => number,
  ) {
    super(now);
  }

  protected answer(i: Incoming) {
    const visit = /^\/v1\/sna\/(\w+)$/.exec(i.url.pathname);
    if (visit) return this.#deviceOpens(i, visit[1]);
    const basic = Buffer.from(`${this.account.accountSid}:${this.account.authToken}`).toString('base64');
    if (i.req.headers.authorization !== `Basic ${basic}`)
      return refuse(i, 401, { code: 20003, message: 'Authenticate', status: 401 }, 'Basic auth');
    const root = `/v2/Services/${this.account.serviceSid}`;
    if (!String(i.req.headers['content-type']).startsWith('application/x-www-form-urlencoded'))
      return refuse(i, 400, { code: 60200, message: 'Invalid parameter', status: 400 }, 'not a form');
    const form = Object.fromEntries(new URLSearchParams(i.raw));
    if (i.req.method === 'POST' && i.url.pathname === `${root}/Verifications`) return this.#start(i, form);
    if (i.req.method === 'POST' && i.url.pathname === `${root}/VerificationCheck`)
      return this.#check(i, form);
    refuse(
      i,
      404,
      { code: 20404, message: 'The requested resource was not found', status: 404 },
      'unknown path',
    );
  }

  #start(i: Incoming, form: Record<string, string>) {
    if (!E164.test(form.To ?? ''))
      return refuse(i, 400, { code: 60200, message: 'Invalid parameter: To', status: 400 }, 'To');
    if (form.Channel !== 'sna')
      return refuse(i, 400, { code: 60200, message: 'Invalid parameter: Channel', status: 400 }, 'Channel');
    const v: Verification = { sid: sid('VE'), to: form.To };
    const visit = randomBytes(12).toString('hex');
    this.#byTo.set(v.to, v);
    this.#byUrl.set(visit, v);
    send(i.res, 201, {
      sid: v.sid,
      service_sid: this.account.serviceSid,
      account_sid: this.account.accountSid,
      to: v.to,
      channel: 'sna',
      status: 'pending',
      valid: false,
      sna: { url: `${this.url}/v1/sna/${visit}` },
      date_created: new Date(this.now()).toISOString(),
    });
  }

  /** The device opens sna.url and ends on Twilio's page: the carrier's finding is kept for the check. */
  #deviceOpens(i: Incoming, visit: string) {
    const v = this.#byUrl.get(visit);
    if (!v) return refuse(i, 404, { code: 20404, message: 'not found', status: 404 }, 'sna url');
    const held = this.phones.get(i.address);
    v.result = held === undefined ? 60510 : held === v.to ? 'match' : 60500;
    const text =
      held === undefined
        ? 'ErrorCode=-31&ErrorDescription=Unsupported Carrier or Potential Wifi'
        : 'ErrorCode=0&ErrorDescription=Success&Carrier=FAKE';
    i.res.writeHead(200, { 'content-type': 'text/plain' }).end(text);
  }

  #check(i: Incoming, form: Record<string, string>) {
    if (this.hangCheck) return;
    if (this.failCheckWith)
      return refuse(
        i,
        this.failCheckWith,
        { code: 20500, message: 'down', status: this.failCheckWith },
        'failing',
      );
    const v = this.#byTo.get(form.To ?? '');
    if (!v)
      return refuse(
        i,
        404,
        { code: 20404, message: 'The requested resource was not found', status: 404 },
        'To',
      );
    const base = { sid: v.sid, service_sid: this.account.serviceSid, to: v.to, channel: 'sna' };
    if (v.result === 'match') {
      this.#byTo.delete(v.to);
      return send(i.res, 200, { ...base, status: 'approved', valid: true, sna_attempts_error_codes: [] });
    }
    const code = v.result ?? 60519;
    send(i.res, 200, {
      ...base,
      status: 'pending',
      valid: false,
      sna_attempts_error_codes: [{ attempt_sid: sid('VL'), code }],
    });
  }
}
