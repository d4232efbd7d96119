import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { pageErrorHandler } from '../errors/pages.ts';
import { pageFlow } from '../oauth/authorization-steps.ts';
import { errorPagesIn } from '../pages/consent-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { accountRoutes } from './account-routes.ts';

/**
 * The account page, registered on its own beside the authorization pages: it shares their single sign-on
 * and their way of answering a page (oauth/page-answers.ts), and has its own error page handler.
 */
export function accountPage(fastify: FastifyInstance, c: Container) {
  const flow = pageFlow(c);
  accountRoutes(fastify, c, flow);
  fastify.setErrorHandler(
    pageErrorHandler(flow.page.html, (request) => errorPagesIn(viewOf(request, c)), 'account page'),
  );
}
