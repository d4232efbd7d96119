// A hosted CAPTCHA's server-side check (Cloudflare Turnstile, hCaptcha), for operators who want one in place of
// the proof-of-work challenge. Both vendors take a form-encoded POST of the secret, the token the widget gave
// the browser and the visitor's address, and answer JSON with `success` and `error-codes`.

export type CaptchaVendor = 'turnstile' | 'hcaptcha';

export interface CaptchaSettings {
  provider: CaptchaVendor;
  /** the widget's secret key: sent only to the vendor, never logged */
  secret: string;
  /** the widget's public site key, which the page's widget is drawn with */
  siteKey: string;
  /** the vendor's siteverify endpoint (a local verifier in tests) */
  verifyUrl: string;
  /** CAPTCHA_HOSTNAMES: the sites whose widgets' tokens count; unset, the hosted pages' host alone */
  hostnames?: string[];
}

/** The origins a page showing the widget must allow, per kind of resource, as the vendor documents them. */
export interface WidgetPolicy {
  script: string[];
  frame: string[];
  style: string[];
  connect: string[];
}

/** What differs between the vendors: their endpoint, their widget, and what their widget loads. */
export const CAPTCHA_VENDORS: Record<
  CaptchaVendor,
  { verifyUrl: string; script: string; policy: WidgetPolicy; widgetClass: string; tokenField: string }
> = {
  turnstile: {
    verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    script: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    policy: {
      script: ['https://challenges.cloudflare.com'],
      frame: ['https://challenges.cloudflare.com'],
      style: [],
      connect: [],
    },
    widgetClass: 'cf-turnstile',
    tokenField: 'cf-turnstile-response',
  },
  hcaptcha: {
    verifyUrl: 'https://api.hcaptcha.com/siteverify',
    script: 'https://js.hcaptcha.com/1/api.js',
    policy: {
      script: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      frame: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      style: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      connect: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    },
    widgetClass: 'h-captcha',
    tokenField: 'h-captcha-response',
  },
};

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
      res = await fetch(verifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
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
