import { type SmsProvider, SmsSendError } from './sms-provider.ts';

/** D37: Twilio's Messages API (form-encoded, HTTP Basic with the account SID and auth token). */
export class TwilioSms implements SmsProvider {
  readonly name = 'twilio';
  constructor(
    private readonly opts: { accountSid: string; authToken: string; from: string; apiUrl: string },
    private readonly timeoutMs = 10_000,
  ) {}

  async send(to: string, message: string): Promise<void> {
    const { accountSid, authToken, from, apiUrl } = this.opts;
    const url = `${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
    // A value starting with MG is a Messaging Service, which Twilio takes instead of a sender number.
    const sender: Record<string, string> = from.startsWith('MG')
      ? { MessagingServiceSid: from }
      : { From: from };
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ To: to, Body: message, ...sender }),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
    } catch (err) {
      throw new SmsSendError(`Twilio unreachable: ${(err as Error).message}`);
    }
    const text = await res.text();
    if (res.status < 200 || res.status > 299)
      throw new SmsSendError(`Twilio answered ${res.status}: ${text.slice(0, 200)}`);
  }
}
