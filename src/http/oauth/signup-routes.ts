import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { offeredChannels } from '../../config/messaging-config.ts';
import type { Container } from '../../container.ts';
import { isWellFormedPin } from '../../domain/accounts/pin-rules.ts';
import { DomainError, fieldError } from '../../domain/errors.ts';
import { parseChannel } from '../../domain/messaging/texts.ts';
import { maskPhone, parsePhoneIn } from '../../domain/phone.ts';
import { CAPTCHA_VENDORS, type CaptchaSettings } from '../../providers/captcha/siteverify.ts';
import { pageForm } from '../described.ts';
import { formProblem } from '../errors/page-messages.ts';
import { PageError } from '../errors/pages.ts';
import {
  type FormContext,
  signInPage,
  signUpAccountPage,
  signUpCaptchaPage,
  signUpChallengePage,
  signUpCodePage,
  signUpPhonePage,
} from '../pages/authorize-pages.ts';
import { CHALLENGE_SCRIPT } from '../pages/challenge-script.ts';
import { errorPage } from '../pages/consent-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { sendPage } from '../pages/page-reply.ts';
import { resetPhonePage, resetPinPage } from '../pages/reset-pages.ts';
import type { PageFlow } from './page-flow.ts';
import { linkedState, type PageState, pageCountry, pageView, signInWays } from './page-forms.ts';
import { besideTheCode } from './reset-routes.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  | 'accounts'
  | 'authorization'
  | 'clients'
  | 'clock'
  | 'codeSignIn'
  | 'config'
  | 'logos'
  | 'otp'
  | 'pageStateKeys'
  | 'profiles'
  | 'rateLimiter'
  | 'recoveryCodes'
>;

/** The hosted page's sign-up without leaving the flow: phone, code, then PIN and handle. */
export function signupRoutes(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { html, limit, csrfFor, formState, sealed, signedIn, retry } = flow;

  /** The page's links between sign-in and sign-up: the same request, its state carried in the query. */
  const linkedPage = (path: string, show: (ctx: FormContext, hint?: string) => string) =>
    app.get(path, { schema: { hide: true, querystring: pageForm() } }, async (request, reply) => {
      const csrf = csrfFor(request, reply);
      const linked = await linkedState(c, flow, request.query.state, csrf);
      if (!linked) return html(reply, 400, errorPage(viewOf(request, c), 'error.signin_expired'));
      const view = pageView(c, request, linked.st);
      const ctx = {
        client: linked.client,
        csrf,
        state: linked.state,
        view,
        country: pageCountry(c, request),
        ...signInWays(c),
      };
      return html(reply, 200, show(ctx, linked.st.req.loginHint), linked.st.req.redirectUri);
    });
  const channels = offeredChannels(c.config.messaging);
  linkedPage('/authorize/signup', (ctx, hint) => signUpPhonePage(ctx, hint, channels));
  challengeScriptRoute(app);
  linkedPage('/authorize/signin', signInPage); // Back from the sign-up page

  sendRoute(fastify, c, flow);

  const verifyForm = { schema: { hide: true, body: pageForm('code') } };
  app.post('/authorize/signup/verify', verifyForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    if (!st.phone) throw new PageError(400, 'error.signup_restart');
    try {
      await limit(request);
      const { code } = request.body;
      if (code === undefined) throw fieldError('INVALID_REQUEST', 'code', 'code must be a string');
      const purpose = st.codePurpose ?? 'signup';
      const { temp_token } = await c.otp.verify(st.phone, code, purpose);
      // A code to sign in with: signed in as after a PIN.
      if (purpose === 'signin') {
        const { user, amr } = await c.codeSignIn.proved(temp_token);
        return await signedIn(reply, ctx, { req: st.req }, user, amr);
      }
      const next = { req: st.req, tempToken: temp_token };
      if (purpose === 'pin_reset') {
        const state = sealed({ ...next, codePurpose: purpose }, ctx.csrf);
        return html(reply, 200, resetPinPage({ ...ctx, state }), st.req.redirectUri);
      }
      return html(
        reply,
        200,
        signUpAccountPage({ ...ctx, state: sealed({ req: st.req, tempToken: temp_token }, ctx.csrf) }),
        st.req.redirectUri,
      );
    } catch (err) {
      const after = await besideTheCode(c, ctx, st);
      const page = (problem: DomainError) =>
        signUpCodePage(
          { ...ctx, problem: formProblem(ctx.view, problem) },
          maskPhone(st.phone as string),
          after,
        );
      return retry(reply, err, page, st.req.redirectUri);
    }
  });

  const createForm = {
    schema: { hide: true, body: pageForm('pin', 'handle', 'name', 'platform_authenticator') },
  };
  app.post('/authorize/signup/create', createForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    if (!st.tempToken) throw new PageError(400, 'error.signup_restart');
    const { pin = '', handle = '', name } = request.body;
    try {
      await limit(request);
      const { user, amr } = await c.accounts.createAccount(
        { temp_token: st.tempToken, pin, handle, name: name?.trim() ? name : undefined },
        async () => {},
      );
      return await signedIn(reply, ctx, st, user, amr, request.body.platform_authenticator === '1');
    } catch (err) {
      // A PIN of 4-6 digits that was refused was refused as too easy to guess.
      const pinRule = { INVALID_PIN: isWellFormedPin(pin) ? 'error.pin_weak' : 'error.pin_format' } as const;
      const page = (problem: DomainError) =>
        signUpAccountPage({ ...ctx, problem: formProblem(ctx.view, problem, pinRule) }, { handle, name });
      return retry(reply, err, page, st.req.redirectUri);
    }
  });
}

/** Step one: the phone number, and the proof of a person when the SMS defence asks for one. */
function sendRoute(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { html, limit, formState, sealed, retry } = flow;
  // The proof of a person comes as the page's script's answer, or as the hosted CAPTCHA widget's own field.
  const sendForm = {
    schema: {
      hide: true,
      body: pageForm(
        'phone',
        'country',
        'channel',
        'purpose',
        'pin',
        'platform_authenticator',
        'challenge_solution',
        'cf-turnstile-response',
        'h-captcha-response',
      ),
    },
  };
  app.post('/authorize/signup/send', sendForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    const { phone } = request.body;
    // The sign-in page's "Text me a code instead" asks for a code to sign in with (the PIN it carries is
    // unused), and "Forgot PIN?" one to reset the PIN.
    const purpose = codePurposeOf(request.body.purpose);
    try {
      const e164 = parsePhoneIn(phone, ctx.country).e164;
      await limit(request, [
        ['otp_send_address', request.ip],
        ['otp_send_phone', e164],
      ]);
      const {
        challenge_solution,
        'cf-turnstile-response': turnstile,
        'h-captcha-response': hcaptcha,
      } = request.body;
      const proof = {
        challengeSolution: challenge_solution,
        captchaToken: turnstile ?? hcaptcha,
        address: request.ip,
      };
      const asked = request.body.channel ? parseChannel(request.body.channel) : undefined;
      const channel = purpose === 'signin' ? ctx.codeChannel : asked;
      // The code's text is in the page's language.
      await c.otp.sendCode(e164, purpose, { proof, channel, language: ctx.view.lang });
      const codeState: PageState = { ...st, phone: e164 };
      if (purpose !== 'signup') codeState.codePurpose = purpose;
      const codeCtx = { ...ctx, state: sealed(codeState, ctx.csrf) };
      const after = await besideTheCode(c, codeCtx, codeState);
      const codePage = signUpCodePage(codeCtx, maskPhone(e164), after);
      return html(reply, 200, codePage, st.req.redirectUri);
    } catch (err) {
      // The SMS defence asks for proof of a person: the page's own script solves the challenge and sends
      // again, or the person completes the operator's hosted CAPTCHA.
      if (err instanceof DomainError && err.code === 'CHALLENGE_REQUIRED' && phone)
        return c.config.captcha
          ? captchaPage(reply, ctx, phone, c.config.captcha, purpose)
          : sendPage(reply, 200, signUpChallengePage(ctx, phone, err.details.challenge as object, purpose));
      const page = (problem: DomainError) => {
        const shown = { ...ctx, problem: formProblem(ctx.view, problem) };
        const typed = String(phone ?? '');
        if (purpose === 'signin') return signInPage(shown, typed);
        if (purpose === 'pin_reset') return resetPhonePage(shown, typed);
        return signUpPhonePage(shown, typed, offeredChannels(c.config.messaging));
      };
      return retry(reply, err, page, st.req.redirectUri);
    }
  });
}

/** The script the sign-up page's challenge runs, from this origin (the page's policy allows no other). */
function challengeScriptRoute(app: FastifyInstance) {
  app.get('/authorize/assets/challenge.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(CHALLENGE_SCRIPT),
  );
}

/** The sign-up page with the operator's hosted CAPTCHA; its policy allows the vendor's widget, nothing more. */
function captchaPage(
  reply: FastifyReply,
  ctx: FormContext,
  phone: string,
  captcha: CaptchaSettings,
  purpose: string,
) {
  const vendor = CAPTCHA_VENDORS[captcha.provider];
  const widget = { widgetClass: vendor.widgetClass, siteKey: captcha.siteKey, script: vendor.script };
  return sendPage(reply, 200, signUpCaptchaPage(ctx, phone, widget, purpose), { widget: vendor.policy });
}

/** What the posted `purpose` asks a code for: a sign-up unless it names a sign-in or a PIN reset. */
const codePurposeOf = (posted: string | undefined): 'signup' | 'signin' | 'pin_reset' =>
  posted === 'signin' || posted === 'pin_reset' ? posted : 'signup';
