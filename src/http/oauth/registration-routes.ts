import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import type { Registration } from '../../domain/clients/client-registration.ts';
import { OAuthError } from '../../domain/oauth/oauth-error.ts';
import { unixSeconds } from '../../providers/clock.ts';
import { AdminClient } from '../admin/client-responses.ts';
import { adminClient } from '../admin/presenters.ts';
import { NoContent } from '../admin/responses.ts';
import { clientFields } from '../admin/route-schema.ts';
import { bearerToken } from '../plugins/bearer.ts';
import { countRequest } from '../plugins/rate-limit-headers.ts';
import { oauthAnswer } from './responses.ts';

/** The services these routes use. */
type Services = Pick<Container, 'clientRegistration' | 'config' | 'rateLimiter'>;

/** RFC 7591 §3.2.1 and RFC 7592 §3: the client's metadata, and what manages it. */
const RegisteredClient = Type.Intersect([
  AdminClient,
  Type.Object({
    client_id_issued_at: Type.Integer(),
    client_secret: Type.Optional(Type.String({ description: 'a confidential client; shown once' })),
    client_secret_expires_at: Type.Optional(Type.Integer({ description: '0: it does not expire' })),
    registration_access_token: Type.Optional(Type.String({ description: 'shown once: manages the client' })),
    registration_client_uri: Type.String(),
  }),
]);
const clientParam = Type.Object({ client_id: Type.String() });
const tags = ['OAuth'];
const security = [{ bearer: [] }];

/** Dynamic client registration (RFC 7591) and its management (RFC 7592) at /oauth/register. */
export function registrationRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const uri = (clientId: string) => `${c.config.baseUrl}/oauth/register/${encodeURIComponent(clientId)}`;
  const answer = (r: Registration) => ({
    ...adminClient(r.client),
    client_id_issued_at: unixSeconds(r.client.created_at),
    ...(r.client_secret ? { client_secret: r.client_secret, client_secret_expires_at: 0 } : {}),
    ...(r.registration_access_token ? { registration_access_token: r.registration_access_token } : {}),
    registration_client_uri: uri(r.client.client_id),
  });
  /** A refused token counts against the caller's address, as does every open registration. */
  const counted = async <T>(
    request: FastifyRequest,
    reply: FastifyReply,
    open: boolean,
    run: () => Promise<T>,
  ) => {
    if (open) await countRequest(c, reply, [['client_registration_address', request.ip]]);
    try {
      return await run();
    } catch (err) {
      if (!open && err instanceof OAuthError && err.error === 'invalid_token')
        await countRequest(c, reply, [['client_registration_address', request.ip]]);
      throw err;
    }
  };
  app.post(
    '/oauth/register',
    {
      schema: {
        tags,
        security,
        summary: 'A client registers itself (RFC 7591), with an initial access token as a bearer token',
        body: clientFields,
        response: oauthAnswer(RegisteredClient, 201),
      },
    },
    async (request, reply) => {
      const token = bearerToken(request);
      const registered = await counted(request, reply, !token, () =>
        c.clientRegistration.register(token, request.body ?? {}),
      );
      return reply.status(201).header('Cache-Control', 'no-store').send(answer(registered));
    },
  );
  const manage = { tags, security, params: clientParam };
  app.get(
    '/oauth/register/:client_id',
    {
      schema: { ...manage, summary: 'Its registration (RFC 7592)', response: oauthAnswer(RegisteredClient) },
    },
    async (request, reply) => {
      const read = () => c.clientRegistration.read(request.params.client_id, bearerToken(request));
      return reply
        .header('Cache-Control', 'no-store')
        .send(answer(await counted(request, reply, false, read)));
    },
  );
  app.put(
    '/oauth/register/:client_id',
    {
      schema: {
        ...manage,
        summary: 'Change its registration (RFC 7592); client_id in the body too',
        body: Type.Intersect([clientFields, Type.Object({ client_id: Type.Optional(Type.Unknown()) })]),
        response: oauthAnswer(RegisteredClient),
      },
    },
    async (request, reply) => {
      const { client_id: clientId } = request.params;
      const update = () => c.clientRegistration.update(clientId, bearerToken(request), request.body ?? {});
      return reply
        .header('Cache-Control', 'no-store')
        .send(answer(await counted(request, reply, false, update)));
    },
  );
  app.delete(
    '/oauth/register/:client_id',
    {
      schema: {
        ...manage,
        summary: 'Delete the client (RFC 7592), ending its sessions',
        response: oauthAnswer(NoContent, 204),
      },
    },
    async (request, reply) => {
      const remove = () => c.clientRegistration.remove(request.params.client_id, bearerToken(request));
      await counted(request, reply, false, remove);
      return reply.status(204).send();
    },
  );
}
