import { type SmsProvider, SmsSendError } from './sms-provider.ts';

/** D37: a generic gateway: POST {to, message} as JSON; any 2xx means sent. */
export class HttpSms implements SmsProvider {
  readonly name = 'http';
  constructor(
    private readonly url: string,
    private readonly timeoutMs = 10_000,
  ) {}

  async send(to: string, message: string): Promise<void> {
    let res: Response;
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to, message }),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
    } catch (err) {
      throw new SmsSendError(`SMS gateway unreachable: ${(err as Error).message}`);
    }
    await res.body?.cancel();
    if (res.status < 200 || res.status > 299) throw new SmsSendError(`SMS gateway answered ${res.status}`);
  }
}
