import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { pageCookieOf, SSO_COOKIE } from '../cookies/page-cookies.ts';
import { pageForm } from '../described.ts';
import { signInPage } from '../pages/authorize-pages.ts';
import type { PageFlow } from './authorization-steps.ts';

/** The services this route uses. */
type Services = Pick<Container, 'authorization' | 'config'>;

/**
 * "Not you?", on every page shown under a single sign-on: it ends that single sign-on in this browser (the
 * account's other sign-ins stay) and starts the same authorization again at the sign-in page.
 */
export function notYouRoute(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/authorize/not-you', { schema: { hide: true, body: pageForm() } }, async (request, reply) => {
    const { st, ctx } = await flow.page.formState(request, request.body);
    await flow.page.limit(request);
    await c.authorization.endSso(pageCookieOf(request, c.config.authUrl, SSO_COOKIE));
    reply.header('Set-Cookie', flow.page.cookie(SSO_COOKIE, '', 0));
    const state = flow.page.sealed({ req: st.req }, ctx.csrf);
    return flow.page.html(reply, 200, signInPage({ ...ctx, state }, st.req.loginHint), st.req.redirectUri);
  });
}
