import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { Container } from '../../composition/container.ts';
import { DomainError, fieldError } from '../../domain/errors.ts';
import { pageForm } from '../described.ts';
import { formProblem } from '../errors/page-messages.ts';
import { PageError } from '../errors/pages.ts';
import { REST_STATUS } from '../errors/rest-statuses.ts';
import { signInPage } from '../pages/authorize-pages.ts';
import { passkeyOfferPage, passkeyStepUpPage } from '../pages/passkey-pages.ts';
import { AuthenticationResponse, RegistrationResponse } from '../rest/passkey-schemas.ts';
import type { PageFlow } from './authorization-steps.ts';
import { PASSKEY_LATER_COOKIE, PASSKEY_LATER_SECONDS } from './authorization-steps.ts';
import { signedInStill } from './live-sign-on.ts';
import type { PageState } from './page-forms.ts';

/** The services these routes use. */
type Services = Pick<Container, 'authorization' | 'config' | 'passkeys' | 'passkeySignIn' | 'signIn'>;

const optionsForm = {
  schema: { hide: true, body: pageForm('ceremony') },
};
const answerForm = { schema: { hide: true, body: pageForm('response') } };
const onwardForm = { schema: { hide: true, body: pageForm() } };

/** The browser's answer, posted as JSON in the form's `response` field, in the shape WebAuthn gives it. */
export function browserAnswer<S extends TSchema>(schema: S, posted: string | undefined): Static<S> {
  let answer: unknown;
  try {
    answer = JSON.parse(posted ?? '');
  } catch {}
  if (!Value.Check(schema, answer)) throw fieldError('INVALID_REQUEST', 'response', 'not a WebAuthn answer');
  return answer;
}

const notThisAccount = () => new DomainError('INVALID_CREDENTIALS', 'the passkey is not this account’s');

/**
 * The hosted pages' passkey forms: the options a ceremony needs (JSON, for the page's script), a sign-in with
 * a passkey (from the sign-in page, or the step-up page for the account already signed in), a passkey made
 * from the offer, and the ways on without one.
 */
export function passkeyPageRoutes(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { limit, formState, retry, cookie } = flow.page;
  const { signedIn, consentStep } = flow.steps;

  /** A signed-in state at this passkey step, its person still signed in here, else the page starts again. */
  const atStep = async (request: FastifyRequest, st: PageState, step: PageState['step']) => {
    const who = st.step === step ? await signedInStill(c, request, st) : undefined;
    if (!who) throw new PageError(400, 'error.start_again');
    return who;
  };

  // The options for the page's script: a refusal (passkeys off, the offer's sign-in too old) is a page too.
  app.post('/authorize/passkey/options', optionsForm, async (request, reply) => {
    const { st } = await formState(request, request.body);
    await limit(request);
    const ceremony = request.body.ceremony;
    if (ceremony !== 'signin' && ceremony !== 'register') throw new PageError(400, 'error.malformed');
    const options = await (ceremony === 'signin'
      ? c.passkeySignIn.options()
      : c.passkeys.registrationOptions(await atStep(request, st, 'passkey_offer'))
    ).catch((err: unknown) => {
      if (err instanceof DomainError) throw new PageError(REST_STATUS[err.code], 'error.check_input');
      throw err;
    });
    return reply.header('Cache-Control', 'no-store').send(options);
  });

  app.post('/authorize/passkey', answerForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    // A step-up confirms the account already signed in; the sign-in page may find any account.
    const stepUp = st.step === 'passkey_step_up' ? await atStep(request, st, 'passkey_step_up') : undefined;
    try {
      await limit(request, [['signin_address', request.ip]]);
      const answer = browserAnswer(AuthenticationResponse, request.body.response);
      const { user, amr } = await c.signIn.onPage(c.passkeySignIn.proof(answer));
      if (stepUp && user.id !== stepUp.userId) throw notThisAccount();
      return await signedIn({ reply, ctx, st: { req: st.req }, user, amr });
    } catch (err) {
      const show = (problem: DomainError) => {
        const shown = {
          ...ctx,
          problem: formProblem(ctx.view, problem, { INVALID_CREDENTIALS: 'passkey.failed' }),
        };
        return stepUp ? passkeyStepUpPage(shown) : signInPage(shown, st.req.loginHint);
      };
      return retry(reply, err, show, st.req.redirectUri);
    }
  });

  app.post('/authorize/passkey/create', answerForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    const who = await atStep(request, st, 'passkey_offer');
    try {
      await limit(request);
      const answer = browserAnswer(RegistrationResponse, request.body.response);
      await c.passkeys.register(
        { userId: who.userId, authTime: who.authTime },
        { response: answer },
        request.headers['user-agent'],
      );
      // The next page says the passkey was made.
      return await consentStep({ reply, ctx: { ...ctx, notice: 'passkey.created' }, st, who });
    } catch (err) {
      const show = (problem: DomainError) =>
        passkeyOfferPage({
          ...ctx,
          problem: formProblem(ctx.view, problem, { INVALID_REQUEST: 'passkey.create_failed' }),
        });
      return retry(reply, err, show, st.req.redirectUri);
    }
  });

  // "Not now": remembered in this browser, then on as if no passkey had been offered.
  app.post('/authorize/passkey/later', onwardForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    const who = await atStep(request, st, 'passkey_offer');
    await limit(request);
    reply.header('Set-Cookie', cookie(PASSKEY_LATER_COOKIE, '1', PASSKEY_LATER_SECONDS));
    return consentStep({ reply, ctx, st, who });
  });

  // On without the passkey the client asked for: the tokens say the sign-in reached less.
  app.post('/authorize/passkey/skip', onwardForm, async (request, reply) => {
    const { st, ctx } = await formState(request, request.body);
    const who = await atStep(request, st, 'passkey_step_up');
    await limit(request);
    return consentStep({ reply, ctx, st, who });
  });
}
