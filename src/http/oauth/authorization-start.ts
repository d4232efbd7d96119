import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { offeredChannels } from '../../config/messaging-config.ts';
import { type AuthorizationRequest, mustSignIn } from '../../domain/oauth/authorization-request.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { pageCookieOf, SSO_COOKIE } from '../cookies/page-cookies.ts';
import { type FormContext, signInPage, signUpPhonePage } from '../pages/authorize-pages.ts';
import type { PageFlow } from './authorization-steps.ts';
import { signedInAs } from './page-answers.ts';
import { type PageState, pageCountry, pageView, signInWays } from './page-forms.ts';

/** The services this step uses. */
type Services = Pick<Container, 'authorization' | 'clock' | 'config' | 'logos' | 'profiles'>;

/**
 * A checked authorization request's first answer: the sign-up page when it asks for a new account; else the
 * single sign-on answers for the user when it may; else the sign-in page (or, under prompt=none, the error).
 */
export function authorizationStart(c: Services, flow: PageFlow) {
  const { html, redirectTo, csrfFor, sealed } = flow.page;
  const { passkeyStep } = flow.steps;
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    req: AuthorizationRequest,
    client: ClientRow,
  ) => {
    const csrf = csrfFor(request, reply);
    const st: PageState = { req };
    const ctx: FormContext = {
      client,
      csrf,
      state: sealed(st, csrf),
      view: pageView(c, request, st),
      country: pageCountry(c, request),
      ...signInWays(c),
    };
    // The client asks for a new account, so a single sign-on does not answer for the user.
    if (req.prompt?.includes('create')) {
      const channels = offeredChannels(c.config.messaging);
      return html(reply, 200, signUpPhonePage(ctx, req.loginHint, channels), req.redirectUri);
    }
    const sso = await c.authorization.ssoUser(pageCookieOf(request, c.config.authUrl, SSO_COOKIE));
    if (sso && !mustSignIn(req, sso, c.clock.now())) return passkeyStep({ reply, ctx, st, who: sso });
    // Prompt=none never shows the page; the client learns the user must sign in.
    if (req.prompt?.includes('none'))
      return redirectTo(reply, req.redirectUri, {
        error: 'login_required',
        error_description: 'the user must sign in',
        state: req.state,
      });
    // Asked to sign in again under a single sign-on: the page says whose it is, with "Not you?".
    const account = sso && (await c.profiles.get(sso.userId).catch(() => undefined));
    const shown = account ? { ...ctx, signedInAs: signedInAs(account) } : ctx;
    return html(reply, 200, signInPage(shown, req.loginHint), req.redirectUri);
  };
}
