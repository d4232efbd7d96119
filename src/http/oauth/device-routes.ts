import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { pageForm } from '../described.ts';
import { PageError } from '../errors/pages.ts';
import { htmlPage } from '../openapi-types.ts';
import { deviceCodePage } from '../pages/device-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { authorizationStart } from './authorization-start.ts';
import type { PageFlow } from './authorization-steps.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  | 'authorization'
  | 'clients'
  | 'clock'
  | 'config'
  | 'deviceAuthorizations'
  | 'logos'
  | 'profiles'
  | 'rateLimiter'
>;

const userCodeQuery = Type.Object({
  user_code: Type.Optional(Type.String({ description: 'the code the device shows, filled in (not sent)' })),
});

/**
 * The device verification page (RFC 8628 §3.3): `GET /device`, the short address a device shows, opens
 * `/authorize/device`, where the person types the code. A pending request's code goes on to the hosted
 * sign-in, then always to consent, whose answer allows or denies the device (authorization-steps.ts). Wrong
 * codes are counted per address, and once `device_user_code_address` is used up no code is looked up at all.
 */
export function deviceRoutes(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { html, csrfFor, csrfOf, limit } = flow.page;
  const start = authorizationStart(c, flow);
  app.get(
    '/device',
    // The page a device names, reached by its address or QR code: out of the API's document, as every page.
    { schema: { hide: true, querystring: userCodeQuery } },
    async (request, reply) => {
      const query = request.query.user_code
        ? `?${new URLSearchParams({ user_code: request.query.user_code })}`
        : '';
      return reply.redirect(`/authorize/device${query}`, 302);
    },
  );
  app.get(
    '/authorize/device',
    {
      schema: {
        hide: true,
        querystring: userCodeQuery,
        response: { 200: htmlPage('"Enter the code shown on your device"') },
      },
    },
    async (request, reply) => {
      await limit(request);
      const form = { csrf: csrfFor(request, reply), userCode: request.query.user_code?.slice(0, 12) };
      return html(reply, 200, deviceCodePage(viewOf(request, c), form));
    },
  );
  app.post(
    '/authorize/device',
    { schema: { hide: true, body: pageForm('user_code') } },
    async (request, reply) => {
      const csrf = csrfOf(request);
      if (!csrf || request.body.csrf === undefined || !safeEqual(csrf, request.body.csrf))
        throw new PageError(400, 'error.form_expired');
      await limit(request);
      const used = await c.rateLimiter.reached('device_user_code_address', request.ip);
      if (used) throw used;
      const typed = request.body.user_code ?? '';
      const pending = await c.deviceAuthorizations.pending(typed);
      const client = pending && (await c.clients.findClient(pending.client_id));
      if (!pending || !client) {
        const { exceeded } = await c.rateLimiter.hit([['device_user_code_address', request.ip]]);
        if (exceeded) throw exceeded;
        const form = { csrf, userCode: typed.slice(0, 12), wrongCode: true };
        return html(reply, 400, deviceCodePage(viewOf(request, c, {}, '/authorize/device'), form));
      }
      return start(request, reply, c.deviceAuthorizations.requestOf(pending), client);
    },
  );
}
