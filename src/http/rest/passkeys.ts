import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import { ok } from './envelope.ts';
import {
  AuthenticationResponse,
  CreationOptions,
  Passkey,
  RegistrationResponse,
  RequestOptions,
} from './passkey-schemas.ts';
import { restPasskey, restUser } from './presenters.ts';
import { RestUser, restAnswer, SignedIn } from './responses.ts';
import { callerOf, deviceSchema, idParams, secured, text } from './schemas.ts';

/** The services these routes use. */
type Services = Pick<Container, 'passkeys'>;

/** A passkey's sign-in counts against the per-address sign-in limit, as a PIN's does. */
const signInLimits = (request: FastifyRequest): Array<[RateLimitName, string]> => [
  ['signin_address', request.ip],
];

/** Passkeys: registering, listing, naming and removing the caller's. */
export function passkeyRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/passkeys/registration/options',
    {
      schema: {
        ...secured,
        summary: 'What the browser needs to create a passkey (needs a sign-in at most 10 minutes old)',
        response: restAnswer(CreationOptions, 'pass to navigator.credentials.create()'),
      },
      config: { auth: true },
    },
    async (request) => ok(await c.passkeys.registrationOptions(callerOf(request))),
  );

  app.post(
    '/passkeys/registration',
    {
      schema: {
        ...secured,
        summary: 'Keep the passkey the browser created (needs a sign-in at most 10 minutes old)',
        body: Type.Object({
          response: RegistrationResponse,
          name: Type.Optional(
            text(
              '1-64 characters; when not given, the authenticator\'s name (from its AAGUID), else the browser and system, else "Passkey"',
            ),
          ),
        }),
        response: restAnswer(Passkey, 'the passkey kept'),
      },
      config: { auth: true },
    },
    async (request) =>
      ok(
        restPasskey(
          await c.passkeys.register(callerOf(request), request.body, request.headers['user-agent']),
        ),
      ),
  );

  app.get(
    '/passkeys',
    {
      schema: {
        ...secured,
        summary: "The caller's passkeys, the oldest first",
        response: restAnswer(
          Type.Object({ passkeys: Type.Array(Passkey), total: Type.Integer() }),
          'the passkeys',
        ),
      },
      config: { auth: true },
    },
    async (request) => {
      const passkeys = await c.passkeys.list(callerOf(request).userId);
      return ok({ passkeys: passkeys.map(restPasskey), total: passkeys.length });
    },
  );

  app.patch(
    '/passkeys/:id',
    {
      schema: {
        ...secured,
        summary: 'Rename one of the caller’s passkeys',
        params: idParams('id'),
        body: Type.Object({ name: text('1-64 characters') }),
        response: restAnswer(Passkey, 'the passkey renamed'),
      },
      config: { auth: true },
    },
    async (request) =>
      ok(
        restPasskey(await c.passkeys.rename(callerOf(request).userId, request.params.id, request.body.name)),
      ),
  );

  app.delete(
    '/passkeys/:id',
    {
      schema: {
        ...secured,
        summary: 'Remove one of the caller’s passkeys (needs a sign-in at most 10 minutes old)',
        params: idParams('id'),
        response: restAnswer(Type.Object({ deleted: Type.Literal(true) }), 'the passkey removed'),
      },
      config: { auth: true },
    },
    async (request) => {
      await c.passkeys.remove(callerOf(request), request.params.id);
      return ok({ deleted: true as const });
    },
  );
}

/** Signing in with a passkey: no credentials but the passkey's signature. */
export function passkeySignInRoutes(
  fastify: FastifyInstance,
  c: Pick<Container, 'passkeySignIn' | 'signIn'>,
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/auth/passkey/options',
    {
      schema: {
        tags: ['REST'],
        summary: 'What the browser needs to sign in with a passkey (any passkey of this service)',
        body: Type.Union([Type.Object({}), Type.Null()]),
        response: restAnswer(RequestOptions, 'pass to navigator.credentials.get()'),
      },
      config: { rateLimit: signInLimits },
    },
    async () => ok(await c.passkeySignIn.options()),
  );

  app.post(
    '/auth/passkey/verify',
    {
      schema: {
        tags: ['REST'],
        summary: 'Sign in with the passkey the browser signed with',
        body: Type.Object({ response: AuthenticationResponse, device: Type.Optional(deviceSchema) }),
        response: restAnswer(SignedIn(RestUser), '{user, access_token, refresh_token, expires_in}'),
      },
      config: { rateLimit: signInLimits },
    },
    async (request) => {
      const { response, device } = request.body;
      const r = await c.signIn.rest(c.passkeySignIn.proof(response), device, request.ip);
      return ok({ ...r, user: restUser(r.user) });
    },
  );
}
