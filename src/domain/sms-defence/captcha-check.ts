// A hosted CAPTCHA (Cloudflare Turnstile or hCaptcha) in the place of the proof-of-work challenge, for
// operators who set CAPTCHA_PROVIDER.
//
// Rules it enforces:
// - A send that needs proof of a person carries `captcha_token`; a missing one, one the vendor does not accept,
//   or one presented before is CHALLENGE_REQUIRED, with the widget to show (`details.captcha`).
// - A token is used once here, whatever the vendor says of it: its first presentation is recorded for as long
//   as the vendors keep a token valid (storage/rules/challenge-uses.ts), before the vendor is asked.
// - The vendor is told the address the send came from.
// - A token counts only when the vendor says it was made on one of the service's own sites (its `hostname`:
//   the hosted pages' host, or those CAPTCHA_HOSTNAMES names), and, where the widget set an action, for the
//   action of a code's send (CAPTCHA_ACTION): a token solved on another site, or for another purpose of the
//   same site, is refused as not passed.
// - When the vendor cannot answer, the send is not let through: SERVICE_UNAVAILABLE.

import type { CaptchaVendor } from '../../config/captcha-vendors.ts';
import {
  CaptchaUnavailable,
  type CaptchaVerdict,
  type CaptchaVerifier,
} from '../../providers/captcha/siteverify.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { useChallenge } from '../../storage/rules/challenge-uses.ts';
import { sha256 } from '../crypto.ts';
import { DomainError } from '../errors.ts';
import type { CaptchaWidget, PersonCheck, SendProof } from './person-check.ts';

/** How long a token is held as used: the longest either vendor keeps one valid (Turnstile: 300 s). */
export const CAPTCHA_TOKEN_TTL_SECONDS = 300;
/** The action the hosted page's widget is drawn with; a client's own widget sets the same, or none. */
export const CAPTCHA_ACTION = 'otp_send';
/** Tokens are at most 2,048 characters (Turnstile's documented bound, and above hCaptcha's). */
const MAX_TOKEN_LENGTH = 4096;

export interface CaptchaCheckDeps {
  db: Database;
  clock: Clock;
  verifier: CaptchaVerifier;
  provider: CaptchaVendor;
  siteKey: string;
  /** the hosts a widget's token may come from */
  hostnames: readonly string[];
}

export class CaptchaCheck implements PersonCheck {
  constructor(private readonly d: CaptchaCheckDeps) {}

  async issue(): Promise<CaptchaWidget> {
    return { provider: this.d.provider, site_key: this.d.siteKey };
  }

  async required(message = 'complete the CAPTCHA, then send again with captcha_token'): Promise<DomainError> {
    return new DomainError('CHALLENGE_REQUIRED', message, { captcha: await this.issue() });
  }

  async redeem({ captchaToken, address }: SendProof): Promise<void> {
    if (!captchaToken || captchaToken.length > MAX_TOKEN_LENGTH) throw await this.required();
    const heldUntil = new Date(this.d.clock.now().getTime() + CAPTCHA_TOKEN_TTL_SECONDS * 1000);
    if (!(await useChallenge(this.d.db, `captcha:${sha256(captchaToken)}`, heldUntil)))
      throw await this.required('this CAPTCHA token was used already; complete the CAPTCHA again');
    let verdict: CaptchaVerdict;
    try {
      verdict = await this.d.verifier.verify(captchaToken, address);
    } catch (err) {
      if (!(err instanceof CaptchaUnavailable)) throw err;
      throw new DomainError('SERVICE_UNAVAILABLE', 'the CAPTCHA could not be checked; try again shortly');
    }
    const ownSite =
      verdict.hostname !== undefined && this.d.hostnames.includes(verdict.hostname.toLowerCase());
    const rightAction = verdict.action === undefined || verdict.action === CAPTCHA_ACTION;
    if (!verdict.success || !ownSite || !rightAction)
      throw await this.required('the CAPTCHA was not passed; complete it again');
  }
}
