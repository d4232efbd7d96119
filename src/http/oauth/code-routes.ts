import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { type CaptchaSettings, captchaWidget } from '../../config/captcha-vendors.ts';
import { offeredChannels } from '../../config/messaging-config.ts';
import { DomainError, fieldError } from '../../domain/errors.ts';
import { parseChannel } from '../../domain/messaging/texts.ts';
import { maskPhone, parsePhoneIn } from '../../domain/phone.ts';
import type { SendProof } from '../../domain/sms-defence/person-check.ts';
import { blockCounting, codeSendLimits } from '../../domain/sms-defence/send-limits.ts';
import type { Channel } from '../../providers/messaging/provider.ts';
import { pageForm } from '../described.ts';
import { formProblem } from '../errors/page-messages.ts';
import { PageError } from '../errors/pages.ts';
import {
  type FormContext,
  signInPage,
  signUpCaptchaPage,
  signUpChallengePage,
  signUpPhonePage,
} from '../pages/authorize-pages.ts';
import { type CodePageWays, codePage } from '../pages/code-pages.ts';
import { sendPage } from '../pages/page-reply.ts';
import { isPhoneRisk, phoneRiskPage } from '../pages/phone-risk-pages.ts';
import { resetPhonePage } from '../pages/reset-pages.ts';
import type { PageFlow } from './authorization-steps.ts';
import type { PageState } from './page-forms.ts';
import { phoneProven } from './phone-proven.ts';
import { besideTheCode } from './reset-routes.ts';
import { checkingStep, codeStateOf, sendOrCheck } from './silent-send.ts';

// The hosted pages' code step, whatever the code is for: a sign-up, a sign-in instead of the PIN, or a PIN
// reset. The phone's code is sent (with the SMS defence's proof of a person when it asks), sent again on
// "Send a new code", and verified; "Change number" goes back to the phone step of the same purpose.
//
// Rules it enforces:
// - A new code may be asked for 30 seconds after the last one sent in this flow; an earlier one is answered
//   with the seconds to wait, and sends nothing. The phone's and the address's send limits apply as well.

/** The services these routes use. */
type Services = Pick<
  Container,
  | 'clock'
  | 'codeSignIn'
  | 'config'
  | 'defence'
  | 'logos'
  | 'networkVerification'
  | 'otp'
  | 'recoveryCodes'
  | 'signIn'
>;

/** The seconds between two codes asked for in one flow. */
export const RESEND_SECONDS = 30;

type CodePurpose = 'signup' | 'signin' | 'pin_reset';

/** What the posted `purpose` asks a code for: a sign-up unless it names a sign-in or a PIN reset. */
const codePurposeOf = (posted: string | undefined): CodePurpose =>
  posted === 'signin' || posted === 'pin_reset' ? posted : 'signup';

/** Where "Change number" goes: the phone step the purpose started from. */
const PHONE_STEP: Record<CodePurpose, string> = {
  signup: '/authorize/signup',
  signin: '/authorize/signin',
  pin_reset: '/authorize/reset',
};

/** The milliseconds until a new code may be asked for in this flow (0 or less: now). */
const resendWait = (st: PageState, now: Date) => (st.codeSentAt ?? 0) + RESEND_SECONDS * 1000 - now.getTime();

/** The ways on from a state's code page. */
export async function codeWays(
  c: Pick<Services, 'clock' | 'recoveryCodes'>,
  ctx: FormContext,
  st: PageState,
): Promise<CodePageWays> {
  return {
    waitSeconds: Math.max(0, Math.ceil(resendWait(st, c.clock.now()) / 1000)),
    changeNumber: `${PHONE_STEP[st.codePurpose ?? 'signup']}?state=${encodeURIComponent(ctx.state)}`,
    beside: await besideTheCode(c, ctx, st),
  };
}

/** The code page of a state at the code step, with its ways on. */
export const codeStepPage = async (
  c: Pick<Services, 'clock' | 'recoveryCodes'>,
  ctx: FormContext,
  st: PageState,
) => codePage(ctx, maskPhone(st.phone ?? ''), await codeWays(c, ctx, st));

/** The proof of a person a form carries: the page's challenge answer, or the hosted CAPTCHA's own field. */
function proofOf(request: FastifyRequest, body: Record<string, string | undefined>): SendProof {
  const { challenge_solution, 'cf-turnstile-response': turnstile, 'h-captcha-response': hcaptcha } = body;
  return { challengeSolution: challenge_solution, captchaToken: turnstile ?? hcaptcha, address: request.ip };
}

const sendForm = {
  schema: {
    hide: true,
    body: pageForm(
      ...['phone', 'country', 'channel', 'purpose', 'pin', 'platform_authenticator'],
      ...['challenge_solution', 'cf-turnstile-response', 'h-captcha-response'],
    ),
  },
};

export function codeRoutes(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { html, limit, formState, sealed, retry } = flow.page;

  /** Sends a code to the phone for the purpose, and shows the code page; `refused` shows a refusal. */
  const send = async (
    reply: FastifyReply,
    o: { st: PageState; ctx: FormContext; phone: string; purpose: CodePurpose; channel?: Channel },
    proof: SendProof,
    refused: (problem: DomainError) => string,
  ) => {
    const { st, ctx, phone, purpose } = o;
    try {
      await limit(reply.request, codeSendLimits(reply.request.ip, phone, blockCounting(c.config)));
      // The code's text is in the page's language; a phone's browser may be proven by its network first.
      const codeState = codeStateOf(st, phone, purpose, c.clock.now());
      const codeCtx = { ...ctx, state: sealed(codeState, ctx.csrf) };
      const options = { proof, channel: o.channel, language: ctx.view.lang };
      const operator = await sendOrCheck(c, reply.request, { phone, purpose, options, carry: codeCtx.state });
      if (operator) return checkingStep(flow, reply, o, operator);
      return html(reply, 200, await codeStepPage(c, codeCtx, codeState), st.req.redirectUri);
    } catch (err) {
      // The SMS defence asks for proof of a person: the page's own script solves the challenge and sends
      // again, or the person completes the operator's hosted CAPTCHA.
      if (err instanceof DomainError && err.code === 'CHALLENGE_REQUIRED')
        return c.config.captcha
          ? captchaPage(reply, ctx, phone, c.config.captcha, purpose)
          : sendPage(reply, 200, signUpChallengePage(ctx, phone, err.details.challenge as object, purpose));
      // A send refused by a limit on codes is counted for the operators, as on the REST surface.
      await c.defence.rateLimited(err, phone).catch(() => undefined);
      return retry(reply, err, refused, st.req.redirectUri);
    }
  };

  app.post('/authorize/signup/send', sendForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    const typed = request.body.phone ?? '';
    // The sign-in page's "Text me a code instead" asks for a code to sign in with (the PIN it carries is
    // unused), and "Forgot PIN?" one to reset the PIN.
    const purpose = codePurposeOf(request.body.purpose);
    const refused = (problem: DomainError) => {
      const shown = { ...ctx, problem: formProblem(ctx.view, problem) };
      if (purpose === 'signin') return signInPage(shown, typed);
      if (purpose === 'pin_reset') return resetPhonePage(shown, typed);
      return signUpPhonePage(shown, typed, offeredChannels(c.config.messaging));
    };
    let phone: string;
    try {
      phone = parsePhoneIn(typed, ctx.country).e164;
    } catch (err) {
      return retry(reply, err, refused, st.req.redirectUri);
    }
    const asked = request.body.channel ? parseChannel(request.body.channel) : undefined;
    const channel = purpose === 'signin' ? ctx.codeChannel : asked;
    return send(reply, { st, ctx, phone, purpose, channel }, proofOf(request, request.body), refused);
  });

  app.post('/authorize/code/resend', { schema: { hide: true, body: pageForm() } }, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    if (!st.phone) throw new PageError(400, 'error.start_again');
    const purpose = st.codePurpose ?? 'signup';
    const ways = await codeWays(c, ctx, st);
    const masked = maskPhone(st.phone);
    const refused = (problem: DomainError) =>
      codePage({ ...ctx, problem: formProblem(ctx.view, problem) }, masked, ways);
    const waitMs = resendWait(st, c.clock.now());
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      const problem = { message: ctx.view.t('code.resend_wait', { seconds }) };
      reply.header('Retry-After', String(seconds));
      return html(reply, 429, codePage({ ...ctx, problem }, masked, ways), st.req.redirectUri);
    }
    const channel = purpose === 'signin' ? ctx.codeChannel : undefined;
    return send(reply, { st, ctx, phone: st.phone, purpose, channel }, { address: request.ip }, refused);
  });

  verifyRoute(app, c, flow);
}

/**
 * A code tried too often, or already used, can no longer be used: the page says so, beside "Send a new code".
 * A wrong code with tries left is only wrong.
 */
function codeProblem(view: FormContext['view'], err: DomainError) {
  const triesLeft = err.details.attempts_remaining;
  const usedUp =
    (err.code === 'INVALID_OTP' && !(typeof triesLeft === 'number' && triesLeft > 0)) ||
    (err.code === 'RATE_LIMITED' && err.details.scope === 'otp_attempts');
  return usedUp ? { message: view.t('error.code_used_up'), field: 'code' } : formProblem(view, err);
}

/** The code, checked: a sign-in goes on signed in, a PIN reset to its new PIN, a sign-up to its account. */
function verifyRoute(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { html, limit, formState, retry } = flow.page;
  const verifyForm = { schema: { hide: true, body: pageForm('code') } };
  app.post('/authorize/signup/verify', verifyForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    if (!st.phone) throw new PageError(400, 'error.start_again');
    try {
      await limit(request);
      const { code } = request.body;
      if (code === undefined) throw fieldError('INVALID_REQUEST', 'code', 'code must be a string');
      const purpose = st.codePurpose ?? 'signup';
      const { temp_token } = await c.otp.verify(st.phone, code, purpose);
      return await phoneProven(c, flow, { reply, ctx, st, tempToken: temp_token });
    } catch (err) {
      // The number's SIM changed or the number was recycled: the code is used up; the page says what is left.
      if (err instanceof DomainError && isPhoneRisk(err.details.reason)) {
        const alternatives = Array.isArray(err.details.alternatives) ? err.details.alternatives : [];
        return html(reply, 403, phoneRiskPage(ctx, err.details.reason, alternatives), st.req.redirectUri);
      }
      const ways = await codeWays(c, ctx, st);
      const page = (problem: DomainError) =>
        codePage({ ...ctx, problem: codeProblem(ctx.view, problem) }, maskPhone(st.phone ?? ''), ways);
      return retry(reply, err, page, st.req.redirectUri);
    }
  });
}

/** The sign-up page with the operator's hosted CAPTCHA; its policy allows the vendor's widget, nothing more. */
function captchaPage(
  reply: FastifyReply,
  ctx: FormContext,
  phone: string,
  captcha: CaptchaSettings,
  purpose: string,
) {
  const { widget, policy } = captchaWidget(captcha);
  return sendPage(reply, 200, signUpCaptchaPage(ctx, phone, widget, purpose), { widget: policy });
}
