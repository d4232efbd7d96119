// A hosted CAPTCHA's server-side check (Cloudflare Turnstile, hCaptcha), for operators who want one in place of
// the proof-of-work challenge. Both vendors take a form-encoded POST of the secret, the token the widget gave
// the browser and the visitor's address, and answer JSON with `success` and `error-codes`.

import type { CaptchaSettings } from '../../config/captcha-vendors.ts';
import { outboundCall } from '../../observability/tracing.ts';

/** The vendor could not give an answer (unreachable, timed out, or not a 2xx with JSON). */
export class CaptchaUnavailable extends Error {}

/** What the vendor says of a token: whether it passed, and on which site and for which action it was made. */
export interface CaptchaVerdict {
  success: boolean;
  /** the host of the page the widget was on */
  hostname?: string;
  /** the action the widget was drawn with (Turnstile's `data-action`), where it set one */
  action?: string;
}

export interface CaptchaVerifier {
  /** The vendor's verdict on the token; throws CaptchaUnavailable when it cannot tell. */
  verify(token: string, remoteIp: string | undefined): Promise<CaptchaVerdict>;
}

const textOf = (answer: object, name: string): string | undefined => {
  const value = (answer as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export class SiteverifyCaptcha implements CaptchaVerifier {
  constructor(
    private readonly settings: CaptchaSettings,
    private readonly timeoutMs = 5000,
  ) {}

  async verify(token: string, remoteIp: string | undefined): Promise<CaptchaVerdict> {
    const { provider, secret, siteKey, verifyUrl } = this.settings;
    const form = new URLSearchParams({ secret, response: token });
    if (remoteIp) form.set('remoteip', remoteIp);
    // hCaptcha checks that the token was made by this site's widget when told its key.
    if (provider === 'hcaptcha') form.set('sitekey', siteKey);
    let res: Response;
    try {
      res = await outboundCall(provider, { url: verifyUrl, method: 'POST' }, (traceparent) =>
        fetch(verifyUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...traceparent },
          body: form,
          signal: AbortSignal.timeout(this.timeoutMs),
          redirect: 'manual',
        }),
      );
    } catch (err) {
      throw new CaptchaUnavailable(`${provider} unreachable: ${(err as Error).message}`);
    }
    const answer: unknown = await res.json().catch(() => undefined);
    if (res.status < 200 || res.status > 299 || typeof answer !== 'object' || answer === null)
      throw new CaptchaUnavailable(`${provider} answered ${res.status}`);
    return {
      success: 'success' in answer && answer.success === true,
      hostname: textOf(answer, 'hostname'),
      action: textOf(answer, 'action'),
    };
  }
}
