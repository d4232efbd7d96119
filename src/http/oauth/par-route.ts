import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { PUSHED_REQUEST_TTL_SECONDS } from '../../domain/oauth/authorization-requests.ts';
import { described } from '../described.ts';
import { authenticatedClient, dpopOfRequest } from './client-credentials.ts';
import { oauthAnswer } from './responses.ts';

/** The services this route uses. */
type Services = Pick<
  Container,
  'authorizationRequests' | 'clientAuthenticator' | 'config' | 'dpop' | 'rateLimiter'
>;

/** RFC 9126 §2.2: where the pushed request is found, and for how long. */
const PushedRequest = Type.Object({
  request_uri: Type.String({
    description: 'urn:ietf:params:oauth:request_uri:…, for /authorize with client_id',
  }),
  expires_in: Type.Integer({ description: `${PUSHED_REQUEST_TTL_SECONDS}: seconds it may be used` }),
});

/** POST /oauth/par: Pushed Authorization Requests (RFC 9126). */
export function parRoute(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/oauth/par',
    {
      schema: {
        tags: ['OAuth'],
        summary:
          'Push an authorization request first (RFC 9126); the page is then opened with its request_uri',
        consumes: ['application/x-www-form-urlencoded'],
        response: oauthAnswer(PushedRequest, 201),
        body: described({
          client_id: 'the client (a public client sends only this)',
          client_secret: 'a confidential client: here, or in Authorization: Basic',
          client_assertion_type: 'private_key_jwt: urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: "private_key_jwt: a JWT signed with one of the client's keys",
          response_type: 'code',
          redirect_uri: "one of the client's registered redirect URIs",
          scope: "space-separated, within the client's scopes",
          state: 'returned unchanged on the redirect',
          code_challenge: 'BASE64URL(SHA-256(code_verifier))',
          code_challenge_method: 'S256',
          nonce: 'optional, echoed into the ID token',
          request:
            "or all of the above signed into a request object (RFC 9101) with one of the client's keys",
          prompt: 'optional, as at /authorize',
          max_age: 'optional, as at /authorize',
          login_hint: 'optional, as at /authorize',
          ui_locales: 'optional, as at /authorize',
          acr_values: 'optional, as at /authorize',
          id_token_hint: 'optional, as at /authorize',
          dpop_jkt:
            'optional (RFC 9449 §10): the DPoP key the code will be exchanged with; a DPoP header sets it',
        }),
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const client = await authenticatedClient(c, request, reply, 'oauth_token_client', request.body);
      const dpop = await dpopOfRequest(c, request, client, { optional: true });
      const pushed = await c.authorizationRequests.push(client, request.body ?? {}, dpop?.jkt);
      return reply.status(201).send(pushed);
    },
  );
}
