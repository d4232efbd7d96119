import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { POLL, PUSH } from '../../domain/signals/stream-settings.ts';

/** The services this route uses. */
type Services = Pick<Container, 'config'>;

/** SSF 1.0 §7.1: what a receiver needs to find the transmitter's endpoints and keys. */
const TransmitterConfiguration = Type.Object({
  spec_version: Type.String(),
  issuer: Type.String(),
  jwks_uri: Type.String({ description: 'the keys SETs are signed with' }),
  delivery_methods_supported: Type.Array(Type.String()),
  configuration_endpoint: Type.String(),
  status_endpoint: Type.String(),
  verification_endpoint: Type.String(),
  default_subjects: Type.String({ description: 'ALL: every account the client knows' }),
  authorization_schemes: Type.Array(Type.Object({ spec_urn: Type.String() }), {
    description:
      'OAuth 2.0: a client token with ssf.manage (client_credentials), or the client authenticated',
  }),
});

/** GET /.well-known/ssf-configuration: the Shared Signals transmitter's metadata. */
export function ssfConfigurationRoute(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const base = c.config.baseUrl;
  app.get(
    '/.well-known/ssf-configuration',
    {
      schema: {
        tags: ['Shared Signals'],
        summary: 'The Shared Signals transmitter’s metadata: its endpoints, delivery methods and keys',
        response: { 200: TransmitterConfiguration },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'public, max-age=3600');
      return {
        spec_version: '1_0',
        issuer: base,
        jwks_uri: `${base}/.well-known/jwks.json`,
        delivery_methods_supported: [PUSH, POLL],
        configuration_endpoint: `${base}/ssf/streams`,
        status_endpoint: `${base}/ssf/status`,
        verification_endpoint: `${base}/ssf/verify`,
        default_subjects: 'ALL',
        authorization_schemes: [{ spec_urn: 'urn:ietf:rfc:6749' }],
      };
    },
  );
}
