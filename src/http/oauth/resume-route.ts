import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { pageForm } from '../described.ts';
import { signInPage, signUpAccountPage } from '../pages/authorize-pages.ts';
import { consentPage, errorPage } from '../pages/consent-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { passkeyOfferPage, passkeyStepUpPage } from '../pages/passkey-pages.ts';
import { resetPinPage, resetRemovedPage } from '../pages/reset-pages.ts';
import type { PageFlow } from './authorization-steps.ts';
import { codeStepPage } from './code-routes.ts';
import { linkedState, pageCountry, pageView, signInWays } from './page-forms.ts';

/** The services this route uses. */
type Services = Pick<
  Container,
  'clients' | 'clock' | 'config' | 'logos' | 'pageStateKeys' | 'profiles' | 'recoveryCodes'
>;

/**
 * `GET /authorize/resume?state=…`: the step a sealed state is at, shown again (the language menu returns here).
 * It only shows a form: every step still posts with its CSRF token, and nothing is sent or decided by showing.
 */
export function resumeRoute(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/authorize/resume',
    { schema: { hide: true, querystring: pageForm() } },
    async (request, reply) => {
      const csrf = flow.page.csrfFor(request, reply);
      const linked = await linkedState(c, flow.page, request.query.state, csrf);
      if (!linked) return flow.page.html(reply, 400, errorPage(viewOf(request, c), 'error.signin_expired'));
      const { st, client, state } = linked;
      const account = st.userId ? (await c.profiles.get(st.userId)).language : undefined;
      const ctx = {
        client,
        csrf,
        state,
        view: pageView(c, request, st, account),
        country: pageCountry(c, request),
        ...signInWays(c),
      };
      const redirectUri = st.req.redirectUri;
      if (st.step === 'passkey_offer') return flow.page.html(reply, 200, passkeyOfferPage(ctx), redirectUri);
      if (st.step === 'passkey_step_up')
        return flow.page.html(reply, 200, passkeyStepUpPage(ctx), redirectUri);
      if (st.step === 'reset_removed' && st.removed)
        return flow.page.html(reply, 200, resetRemovedPage(ctx, st.removed), redirectUri);
      if (st.userId) return flow.page.html(reply, 200, consentPage(ctx, st.req), redirectUri);
      if (st.tempToken && st.codePurpose === 'pin_reset')
        return flow.page.html(reply, 200, resetPinPage(ctx), redirectUri);
      if (st.tempToken) return flow.page.html(reply, 200, signUpAccountPage(ctx), redirectUri);
      if (st.phone) return flow.page.html(reply, 200, await codeStepPage(c, ctx, st), redirectUri);
      return flow.page.html(reply, 200, signInPage(ctx, st.req.loginHint), redirectUri);
    },
  );
}
