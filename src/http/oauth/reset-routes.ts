import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { isWellFormedPin } from '../../domain/accounts/pin-rules.ts';
import type { DomainError } from '../../domain/errors.ts';
import { parsePhoneIn } from '../../domain/phone.ts';
import { pageForm } from '../described.ts';
import { formProblem } from '../errors/page-messages.ts';
import { PageError } from '../errors/pages.ts';
import type { FormContext } from '../pages/authorize-pages.ts';
import { errorPage } from '../pages/consent-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import {
  recoveryCodeLink,
  recoveryCodePage,
  recoverySignInPage,
  resetPhonePage,
  resetPinPage,
} from '../pages/reset-pages.ts';
import type { PageFlow } from './authorization-steps.ts';
import { signedInStill } from './live-sign-on.ts';
import { linkedState, type PageState, pageCountry, pageView, signInWays } from './page-forms.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  | 'accounts'
  | 'authorization'
  | 'clients'
  | 'clock'
  | 'config'
  | 'logos'
  | 'pageStateKeys'
  | 'recoveryCodes'
  | 'recoverySignIn'
  | 'signIn'
>;

const pinForm = { schema: { hide: true, body: pageForm('pin', 'platform_authenticator') } };
const recoveryForm = {
  schema: { hide: true, body: pageForm('recovery_code', 'pin', 'platform_authenticator') },
};
const onwardForm = { schema: { hide: true, body: pageForm('platform_authenticator') } };
const recoverySignInForm = {
  schema: { hide: true, body: pageForm('phone', 'country', 'recovery_code', 'platform_authenticator') },
};

/** A PIN of 4-6 digits that was refused was refused as too easy to guess. */
const pinRule = (pin: string) =>
  ({ INVALID_PIN: isWellFormedPin(pin) ? 'error.pin_weak' : 'error.pin_format' }) as const;

/** A step's page, from its context and its state. */
type StepPage = (ctx: FormContext, st: PageState) => string;

/**
 * "Forgot PIN?" on the hosted pages. The phone and its code are the sign-up's steps with purpose pin_reset
 * (signup-routes.ts); here are the way in, the new PIN after the code, and a recovery code instead of the code.
 * A reset ends every session and single sign-on of the account, as over REST, then signs in here and goes on.
 */
export function resetRoutes(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { html, limit, csrfFor, formState, retry } = flow.page;
  const { signedIn } = flow.steps;

  /** A GET of a step from its sealed state, when `ready` says the state is at it. */
  const step = (path: string, ready: (st: PageState) => boolean, show: StepPage) =>
    app.get(path, { schema: { hide: true, querystring: pageForm() } }, async (request, reply) => {
      const csrf = csrfFor(request, reply);
      const linked = await linkedState(c, flow.page, request.query.state, csrf);
      if (!linked || !ready(linked.st))
        return html(reply, 400, errorPage(viewOf(request, c), 'error.signin_expired'));
      const ctx = {
        client: linked.client,
        csrf,
        state: linked.state,
        view: pageView(c, request, linked.st),
        country: pageCountry(c, request),
        ...signInWays(c),
      };
      return html(reply, 200, show(ctx, linked.st), linked.st.req.redirectUri);
    });
  step(
    '/authorize/reset',
    () => true,
    // The number typed before (a refused sign-in, or "Change number" from the code) fills the field.
    (ctx, st) => resetPhonePage(ctx, st.phone ?? st.typedPhone ?? st.req.loginHint),
  );
  const atResetCode = (st: PageState) => st.codePurpose === 'pin_reset' && st.phone !== undefined;
  step('/authorize/reset/recovery', atResetCode, recoveryCodePage);
  step(
    '/authorize/recovery',
    () => true,
    (ctx) => recoverySignInPage(ctx),
  );

  app.post('/authorize/reset/pin', pinForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    if (st.codePurpose !== 'pin_reset' || !st.tempToken) throw new PageError(400, 'error.start_again');
    const { pin = '', platform_authenticator } = request.body;
    try {
      await limit(request);
      const { user, amr, removed } = await c.accounts.resetPinOnPage({ temp_token: st.tempToken, pin });
      const platformAuthenticator = platform_authenticator === '1';
      return await signedIn({ reply, ctx, st: { req: st.req }, user, amr, platformAuthenticator, removed });
    } catch (err) {
      const show = (problem: DomainError) =>
        resetPinPage({ ...ctx, problem: formProblem(ctx.view, problem, pinRule(pin)) });
      return retry(reply, err, show, st.req.redirectUri);
    }
  });

  // A recovery code is guessed like a PIN: the sign-in limits of the number and the address count it.
  app.post('/authorize/reset/recovery', recoveryForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    if (!atResetCode(st) || !st.phone) throw new PageError(400, 'error.start_again');
    const { recovery_code = '', pin = '', platform_authenticator } = request.body;
    try {
      await limit(request, [
        ['signin_address', request.ip],
        ['signin_phone', st.phone],
      ]);
      const { user, amr, removed } = await c.recoveryCodes.resetPinOnPage({
        phone: st.phone,
        recovery_code,
        pin,
      });
      const platformAuthenticator = platform_authenticator === '1';
      return await signedIn({ reply, ctx, st: { req: st.req }, user, amr, platformAuthenticator, removed });
    } catch (err) {
      const rules = { ...pinRule(pin), INVALID_CREDENTIALS: 'error.recovery_code' } as const;
      const show = (problem: DomainError) =>
        recoveryCodePage({ ...ctx, problem: formProblem(ctx.view, problem, rules) });
      return retry(reply, err, show, st.req.redirectUri);
    }
  });

  // On from the page that said what the reset removed, while the person is still signed in here.
  app.post('/authorize/reset/continue', onwardForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    const who = st.step === 'reset_removed' ? await signedInStill(c, request, st) : undefined;
    if (!who) throw new PageError(400, 'error.start_again');
    await limit(request);
    const platformAuthenticator = request.body.platform_authenticator === '1';
    return flow.steps.passkeyStep({ reply, ctx, st: { req: st.req }, who, platformAuthenticator });
  });

  recoverySignInRoute(fastify, c, flow);
}

/**
 * Where PINs are off, a recovery code signs in once (recovery-sign-in.ts), under the sign-in limits of the number
 * and the address; the page then offers to add a passkey as after any sign-in.
 */
function recoverySignInRoute(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/authorize/recovery', recoverySignInForm, async (request, reply) => {
    const { st, ctx } = await flow.page.formState(request, request.body);
    const { phone = '', recovery_code = '', platform_authenticator } = request.body;
    try {
      const e164 = parsePhoneIn(phone, ctx.country).e164;
      await flow.page.limit(request, [
        ['signin_address', request.ip],
        ['signin_phone', e164],
      ]);
      const { user, amr } = await c.signIn.onPage(c.recoverySignIn.proof(e164, recovery_code));
      const platformAuthenticator = platform_authenticator === '1';
      return await flow.steps.signedIn({ reply, ctx, st: { req: st.req }, user, amr, platformAuthenticator });
    } catch (err) {
      const rules = { INVALID_CREDENTIALS: 'error.recovery_code' } as const;
      const show = (problem: DomainError) =>
        recoverySignInPage({ ...ctx, problem: formProblem(ctx.view, problem, rules) }, phone);
      return flow.page.retry(reply, err, show, st.req.redirectUri);
    }
  });
}

/** Beside a PIN reset's code: "Use a recovery code instead", where the account may have one. */
export async function besideTheCode(
  c: Pick<Container, 'recoveryCodes'>,
  ctx: FormContext,
  st: PageState,
): Promise<string> {
  if (st.codePurpose !== 'pin_reset' || !st.phone) return '';
  return (await c.recoveryCodes.offeredFor(st.phone)) ? recoveryCodeLink(ctx) : '';
}
