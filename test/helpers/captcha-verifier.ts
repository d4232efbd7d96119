import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One siteverify call as the vendor received it. */
export interface VerifyCall {
  path: string;
  contentType: string | undefined;
  form: Record<string, string>;
}

/**
 * A CAPTCHA vendor's siteverify endpoint on 127.0.0.1, as Cloudflare Turnstile and hCaptcha document it: a
 * form-encoded POST of `secret`, `response`, `remoteip` (and hCaptcha's `sitekey`), answered with JSON
 * `{success, "error-codes"}`. A token passes once, if it was handed out by `pass()`, with the right secret
 * (and site key); anything else answers `success: false` with the vendor's error code.
 */
export class CaptchaVerifier {
  readonly calls: VerifyCall[] = [];
  /** the status the next calls are answered with (500 simulates an outage) */
  status = 200;
  /** each token handed out, with the site and action its widget was on */
  readonly #passing = new Map<string, { hostname: string; action?: string }>();
  #tokens = 0;
  #server: Server | undefined;

  constructor(
    readonly vendor: 'turnstile' | 'hcaptcha',
    readonly secret: string,
    readonly siteKey: string,
  ) {}

  get path() {
    return this.vendor === 'turnstile' ? '/turnstile/v0/siteverify' : '/siteverify';
  }

  /**
   * A token the widget would give a person who passed it, on a page of `hostname` (the service's own by
   * default) and, for Turnstile, drawn with `action` (the hosted page's by default).
   */
  pass(on: { hostname?: string; action?: string | null } = {}): string {
    const token = `${this.vendor}-token-${++this.#tokens}-${'x'.repeat(40)}`;
    const action = on.action === null ? undefined : (on.action ?? 'otp_send');
    this.#passing.set(token, { hostname: on.hostname ?? 'callsign.test', action });
    return token;
  }

  #answer(form: Record<string, string>): Record<string, unknown> {
    const fail = (code: string) => ({ success: false, 'error-codes': [code] });
    if (form.secret !== this.secret) return fail('invalid-input-secret');
    if (!form.response) return fail('missing-input-response');
    if (this.vendor === 'hcaptcha' && form.sitekey !== this.siteKey) return fail('sitekey-secret-mismatch');
    const made = this.#passing.get(form.response);
    if (!made || !this.#passing.delete(form.response))
      return fail(this.vendor === 'turnstile' ? 'timeout-or-duplicate' : 'invalid-or-already-seen-response');
    // Both vendors name the site's host; Turnstile also the widget's action (empty when it set none).
    const at = { challenge_ts: new Date().toISOString(), hostname: made.hostname };
    return this.vendor === 'turnstile'
      ? { success: true, 'error-codes': [], ...at, action: made.action ?? '', cdata: '' }
      : { success: true, 'error-codes': [], ...at, credit: false };
  }

  async start(): Promise<string> {
    this.#server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        const form = Object.fromEntries(new URLSearchParams(raw));
        this.calls.push({ path: req.url ?? '', contentType: req.headers['content-type'], form });
        if (this.status !== 200) return res.writeHead(this.status).end('unavailable');
        if (req.method !== 'POST' || req.url !== this.path) return res.writeHead(404).end();
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.#answer(form)));
      });
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${this.path}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}
