// The hosted CAPTCHAs an operator may choose (Cloudflare Turnstile, hCaptcha): their settings and what differs
// between the vendors. Read by the configuration, the pages (their Content-Security-Policy) and the check.

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

/** The operator's CAPTCHA as a page shows it: its widget (class, site key, script) and what the page must allow. */
export function captchaWidget(captcha: CaptchaSettings) {
  const vendor = CAPTCHA_VENDORS[captcha.provider];
  return {
    widget: { widgetClass: vendor.widgetClass, siteKey: captcha.siteKey, script: vendor.script },
    policy: vendor.policy,
  };
}
