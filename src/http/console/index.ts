import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { DomainError } from '../../domain/errors.ts';
import { keepAdminAction } from '../admin/admin-trail.ts';
import { consoleErrors } from '../errors/console.ts';
import { consolePage, signInPage } from '../pages/console/layout.ts';
import { sendPage } from '../pages/page-reply.ts';
import { accountRoutes } from './account-routes.ts';
import { consoleContext, formOf, one, SESSION_COOKIE } from './console-context.ts';
import { integrationRoutes } from './integration-routes.ts';
import { messagesPages } from './messages-routes.ts';
import { smsPages } from './sms-routes.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  'adminActions' | 'clock' | 'config' | 'consoleCallMark' | 'consoleSessions' | 'random' | 'rateLimiter'
>;

const SIGNIN_CSRF = 'callsign_console_signin';

/** The operator's console at /console, over the admin API; on only with ADMIN_TOKEN. */
export async function consoleSurface(app: FastifyInstance, c: Services, root: FastifyInstance) {
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  const ctx = consoleContext(root, c);
  // An operator's sign-in and sign-out are in the trail too (a wrong token is not: anyone can send one).
  const keepConsoleVisit = (request: FastifyRequest, step: 'signin' | 'signout') =>
    keepAdminAction(c, request, {
      source: 'console',
      address: request.ip,
      request_id: request.id,
      method: 'POST',
      route: `/console/${step}`,
      params: {},
      status: 303,
    });

  app.setErrorHandler(consoleErrors());

  // Every page but the sign-in form needs a session; every post, that session's CSRF token.
  app.addHook('preHandler', async (request, reply) => {
    if (request.url.split('?')[0] === '/console/signin') return;
    const session = await c.consoleSessions.find(ctx.cookieOf(request, SESSION_COOKIE));
    if (!session) return reply.redirect('/console/signin', 303);
    if (request.method === 'POST') {
      const given = one(formOf(request.body).csrf);
      if (!given || !safeEqual(given, session.csrf))
        return ctx.page(
          reply,
          consolePage(
            'Form expired',
            ctx.frame(request, ''),
            '<p>This form has expired. Go back, reload and try again.</p>',
          ),
          403,
        );
    }
    request.consoleCsrf = session.csrf;
  });

  app.get('/console/signin', { schema: { hide: true } }, async (request, reply) => {
    if (await c.consoleSessions.find(ctx.cookieOf(request, SESSION_COOKIE)))
      return reply.redirect('/console', 303);
    const csrf = c.random.token(24);
    reply.header('Set-Cookie', ctx.cookie(SIGNIN_CSRF, csrf, '/console/signin', 900));
    return sendPage(reply, 200, signInPage(csrf));
  });

  app.post('/console/signin', { schema: { hide: true } }, async (request, reply) => {
    const body = formOf(request.body);
    const csrf = ctx.cookieOf(request, SIGNIN_CSRF);
    const retry = (status: number, message: string) => {
      const fresh = c.random.token(24);
      reply.header('Set-Cookie', ctx.cookie(SIGNIN_CSRF, fresh, '/console/signin', 900));
      return sendPage(reply, status, signInPage(fresh, message));
    };
    if (!csrf || !safeEqual(csrf, one(body.csrf)))
      return retry(400, 'The form expired. Please sign in again.');
    const { exceeded } = await c.rateLimiter.hit([['console_signin_address', request.ip]]);
    if (exceeded) return retry(429, 'Too many attempts from your address. Wait a few minutes.');
    try {
      const session = await c.consoleSessions.signIn(one(body.token));
      await keepConsoleVisit(request, 'signin');
      reply.header('Set-Cookie', [
        ctx.cookie(SESSION_COOKIE, session.id, '/console', session.maxAgeSeconds),
        ctx.cookie(SIGNIN_CSRF, '', '/console/signin', 0),
      ]);
      return reply.redirect('/console', 303);
    } catch (err) {
      if (err instanceof DomainError && err.code === 'INVALID_TOKEN') return retry(401, err.message);
      throw err;
    }
  });

  app.post('/console/signout', { schema: { hide: true } }, async (request, reply) => {
    await c.consoleSessions.signOut(ctx.cookieOf(request, SESSION_COOKIE));
    await keepConsoleVisit(request, 'signout');
    reply.header('Set-Cookie', ctx.cookie(SESSION_COOKIE, '', '/console', 0));
    return reply.redirect('/console/signin', 303);
  });

  integrationRoutes(app, ctx);
  accountRoutes(app, ctx);
  smsPages(app, ctx);
  messagesPages(app, ctx);
}
