import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { DEVICE_POLL_INTERVAL_SECONDS } from '../../domain/oauth/device-authorizations.ts';
import { described } from '../described.ts';
import { authenticatedClient } from './client-credentials.ts';
import { oauthAnswer } from './responses.ts';

/** The services this route uses. */
type Services = Pick<Container, 'clientAuthenticator' | 'config' | 'deviceAuthorizations' | 'rateLimiter'>;

/** RFC 8628 §3.2: what the device shows the person, and how it polls. */
const DeviceAuthorization = Type.Object({
  device_code: Type.String({ description: 'what the device polls the token endpoint with; never shown' }),
  user_code: Type.String({ description: 'what the person types: 8 letters shown as XXXX-XXXX' }),
  verification_uri: Type.String({ description: 'the page where the person types the user code' }),
  verification_uri_complete: Type.String({
    description: 'the same page with the user code filled in (for a QR code)',
  }),
  expires_in: Type.Integer({ description: 'seconds the codes live (DEVICE_CODE_TTL, 600 unless set)' }),
  interval: Type.Integer({
    description: `${DEVICE_POLL_INTERVAL_SECONDS}: seconds between polls; slow_down adds 5 for every poll after`,
  }),
});

/** POST /oauth/device_authorization: the device authorization grant's first step (RFC 8628 §3.1). */
export function deviceAuthorizationRoute(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/oauth/device_authorization',
    {
      schema: {
        tags: ['OAuth'],
        summary:
          'A device without a browser asks to sign in (RFC 8628): it shows the user code and polls the token endpoint',
        consumes: ['application/x-www-form-urlencoded'],
        response: oauthAnswer(DeviceAuthorization),
        body: described({
          client_id: 'the client (a public client sends only this)',
          client_secret: 'a confidential client: here, or in Authorization: Basic',
          client_assertion_type: 'private_key_jwt: urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: "private_key_jwt: a JWT signed with one of the client's keys",
          scope: "space-separated, within the client's scopes",
        }),
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const client = await authenticatedClient(c, request, reply, 'oauth_token_client', request.body);
      return c.deviceAuthorizations.start(client, request.body?.scope);
    },
  );
}
