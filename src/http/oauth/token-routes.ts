import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { fapiApplies } from '../../domain/oauth/client-authentication.ts';
import { grantFor } from '../../domain/oauth/grants/index.ts';
import { described } from '../described.ts';
import { presentedToken } from '../plugins/bearer.ts';
import { allowBrowserApps } from '../plugins/browser-access.ts';
import { authenticatedClient, dpopOfRequest } from './client-credentials.ts';
import { Introspection, oauthAnswer, Revoked, TokenResponse, UserinfoClaims } from './responses.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  'clientAuthenticator' | 'clients' | 'config' | 'dpop' | 'oauthTokens' | 'rateLimiter' | 'tokenGrants'
>;

const form = { tags: ['OAuth'], consumes: ['application/x-www-form-urlencoded'] };
const clientFields = {
  client_id: 'the client (public clients, client_secret_post; optional with a client assertion)',
  client_secret: 'a confidential client: here, or in Authorization: Basic (one of the two)',
  client_assertion_type: 'private_key_jwt: urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
  client_assertion:
    "private_key_jwt: a JWT signed with one of the client's keys (iss = sub = client_id, aud, exp at most 5 minutes ahead, jti)",
};

export function tokenRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Public clients in a browser exchange codes, refresh, revoke and read claims from their own origin.
  allowBrowserApps(fastify, c, ['/oauth/token', '/oauth/revoke', '/oauth/userinfo'], 'GET, POST');
  app.post(
    '/oauth/token',
    {
      schema: {
        ...form,
        summary: 'Token endpoint (RFC 6749 §3.2); a DPoP header (RFC 9449) binds the tokens to its key',
        response: oauthAnswer(TokenResponse),
        body: described({
          grant_type:
            'authorization_code, refresh_token, urn:ietf:params:oauth:grant-type:device_code or client_credentials',
          code: 'authorization_code: the code from the redirect (single use, 60 s)',
          redirect_uri: 'authorization_code: the redirect_uri of the authorization request',
          code_verifier: 'authorization_code: the PKCE verifier (43-128 characters, RFC 7636)',
          refresh_token: 'refresh_token: the latest refresh token (rotated on every use)',
          device_code:
            'device_code: the device_code of POST /oauth/device_authorization, every interval seconds',
          scope: "client_credentials: the client's own scopes asked for (ssf.manage); all of them if absent",
          ...clientFields,
        }),
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      // 300 requests per minute per client, counted once the client has authenticated.
      const client = await authenticatedClient(c, request, reply, 'oauth_token_client', request.body);
      const body = request.body ?? {};
      const dpop = await dpopOfRequest(c, request, client);
      const fapi = fapiApplies(client, c.config.oauth);
      return grantFor(body.grant_type).issue(c.tokenGrants, client, body, { dpopJkt: dpop?.jkt, fapi });
    },
  );

  tokenUseRoutes(fastify, c);
}

/** What a client does with its tokens beside getting them: revoke, introspect, read the user's claims. */
export function tokenUseRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/oauth/revoke',
    {
      schema: {
        ...form,
        summary: 'Revoke a token and its session (RFC 7009)',
        response: oauthAnswer(Revoked),
        body: described({
          token: 'a refresh token of this client',
          token_type_hint: 'ignored',
          ...clientFields,
        }),
      },
    },
    async (request, reply) => {
      const client = await authenticatedClient(c, request, reply, 'oauth_token_client', request.body);
      await c.oauthTokens.revoke(client, request.body?.token);
      return reply.header('Cache-Control', 'no-store').status(200).send({});
    },
  );

  app.post(
    '/oauth/introspect',
    {
      schema: {
        ...form,
        summary: 'Is this token active, and what does it say (RFC 7662; confidential clients)',
        response: oauthAnswer(Introspection),
        body: described({
          token: 'an access token or refresh token issued to this client',
          token_type_hint: 'ignored: a refresh token is known by its form',
          ...clientFields,
        }),
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
      const client = await authenticatedClient(c, request, reply, 'oauth_introspect_client', request.body);
      return c.oauthTokens.introspect(client, request.body?.token);
    },
  );

  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    const answer = await c.oauthTokens.userinfo(presentedToken(request, c.config.baseUrl));
    if ('claims' in answer) return answer.claims;
    return reply.type('application/jwt').send(answer.jwt);
  };
  app.get(
    '/oauth/userinfo',
    {
      schema: {
        tags: ['OAuth'],
        summary: 'Claims of the granted scopes (OIDC Core §5.3); a signed JWT for a client that asked',
        security: [{ bearer: [] }],
        response: oauthAnswer(UserinfoClaims),
      },
    },
    userinfo,
  );
  app.post(
    '/oauth/userinfo',
    {
      schema: {
        tags: ['OAuth'],
        summary: 'Claims of the granted scopes, asked by POST (same as GET)',
        security: [{ bearer: [] }],
        response: oauthAnswer(UserinfoClaims),
      },
    },
    userinfo,
  );
}
