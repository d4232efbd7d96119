import type { FastifyInstance } from 'fastify';
import type { Container } from '../composition/container.ts';
import { esc, page } from './pages/html.ts';
import { sendPage } from './pages/page-reply.ts';
import { viewIn } from './pages/view.ts';

/** The services these routes use. */
type Services = Pick<Container, 'config'>;

/** `GET /`: where to go from the service's root: its API docs, the console, the OpenID discovery document. */
export function homeRoutes(app: FastifyInstance, c: Services) {
  const links = {
    docs: `${c.config.baseUrl}/docs`,
    openapi: `${c.config.baseUrl}/openapi.json`,
    openid_configuration: `${c.config.baseUrl}/.well-known/openid-configuration`,
    health: `${c.config.baseUrl}/health`,
    ...(c.config.adminToken ? { console: `${c.config.baseUrl}/console` } : {}),
  };
  app.get(
    '/',
    {
      schema: {
        tags: ['REST'],
        summary: 'Where to start: API docs, console, OpenID discovery',
        response: {
          200: {
            description: 'a small HTML page, or with `Accept: application/json` its links as JSON',
            type: 'object',
            properties: { name: { type: 'string' }, version: { type: 'string' } },
            additionalProperties: { type: 'string' },
          },
        },
      },
    },
    async (request, reply) => {
      const accept = request.headers.accept ?? '';
      // A browser asks for text/html first; a program that asks for JSON only gets JSON.
      if (accept.includes('application/json') && !accept.includes('text/html'))
        return { name: 'Callsign', version: c.config.version, ...links };
      const item = (label: string, href: string) => `<li><a href="${esc(href)}">${esc(label)}</a></li>`;
      return sendPage(
        reply,
        200,
        page(
          viewIn('en', '/'),
          'Callsign',
          `<p>A phone-number identity provider, version ${esc(c.config.version)}.</p><ul>${[
            item('API documentation', links.docs),
            ...(links.console ? [item('Operator console', links.console)] : []),
            item('OpenID Connect discovery', links.openid_configuration),
            item('Health', links.health),
          ].join('')}</ul>`,
        ),
      );
    },
  );
}
