import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { offeredChannels } from '../../config/messaging-config.ts';
import { assertAcceptablePin, isWellFormedPin } from '../../domain/accounts/pin-rules.ts';
import { DomainError } from '../../domain/errors.ts';
import { assertAcceptableHandle } from '../../domain/profiles/handle-rules.ts';
import { pageForm } from '../described.ts';
import { formProblem } from '../errors/page-messages.ts';
import { PageError } from '../errors/pages.ts';
import {
  type FormContext,
  signInPage,
  signUpAccountPage,
  signUpPhonePage,
} from '../pages/authorize-pages.ts';
import { CHALLENGE_SCRIPT } from '../pages/challenge-script.ts';
import { errorPage } from '../pages/consent-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import type { PageFlow } from './authorization-steps.ts';
import { linkedState, pageCountry, pageView, signInWays } from './page-forms.ts';

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
  | 'profiles'
  | 'rateLimiter'
>;

/** The hosted page's sign-up without leaving the flow: phone, code, then PIN and handle. */
export function signupRoutes(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { html, limit, csrfFor, formState, retry } = flow.page;
  const { signedIn } = flow.steps;

  /** The page's links between sign-in and sign-up: the same request, its state carried in the query. */
  const linkedPage = (path: string, show: (ctx: FormContext, hint?: string) => string) =>
    app.get(path, { schema: { hide: true, querystring: pageForm() } }, async (request, reply) => {
      const csrf = csrfFor(request, reply);
      const linked = await linkedState(c, flow.page, request.query.state, csrf);
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
      // Back from a code page ("Change number"), the number typed is in the field again.
      const typed = linked.st.phone ?? linked.st.req.loginHint;
      return html(reply, 200, show(ctx, typed), linked.st.req.redirectUri);
    });
  const channels = offeredChannels(c.config.messaging);
  linkedPage('/authorize/signup', (ctx, hint) => signUpPhonePage(ctx, hint, channels));
  challengeScriptRoute(app);
  linkedPage('/authorize/signin', signInPage); // Back from the sign-up page

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
      const platformAuthenticator = request.body.platform_authenticator === '1';
      return await signedIn({ reply, ctx, st, user, amr, platformAuthenticator });
    } catch (err) {
      // A PIN of 4-6 digits that was refused was refused as too easy to guess.
      const pinRule = { INVALID_PIN: isWellFormedPin(pin) ? 'error.pin_weak' : 'error.pin_format' } as const;
      const page = (problem: DomainError) => {
        // Every field's problem at once: the PIN's and the handle's rules are checked both.
        const also = [() => assertAcceptablePin(pin), () => assertAcceptableHandle(handle)]
          .map((check) => refusalOf(check))
          .filter((other): other is DomainError => other !== undefined && other.code !== problem.code)
          .map((other) => formProblem(ctx.view, other, pinRule));
        const shown = { ...formProblem(ctx.view, problem, pinRule), also };
        return signUpAccountPage({ ...ctx, problem: shown }, { handle, name });
      };
      return retry(reply, err, page, st.req.redirectUri);
    }
  });
}

/** The domain error a check throws, if it throws one. */
function refusalOf(check: () => void): DomainError | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
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
