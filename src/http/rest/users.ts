import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { acceptedLanguages } from '../../i18n/languages.ts';
import { dateTime, nullable } from '../openapi-types.ts';
import { restLimits } from '../plugins/rest-guards.ts';
import { ok } from './envelope.ts';
import { channelField, otpSendLimits, proofFields, proofOf } from './otp.ts';
import { phoneKey } from './phone-key.ts';
import { publicProfile, restUser } from './presenters.ts';
import { CodeSent, PublicProfile, RestUser, restAnswer } from './responses.ts';
import { callerOf, nullableText, secured, text } from './schemas.ts';

/** The services these routes use. */
type Services = Pick<Container, 'config' | 'deletion' | 'phoneChange' | 'pinChange' | 'profiles'>;

export function userRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/users/me',
    {
      schema: {
        ...secured,
        summary: 'The caller (REST User object)',
        response: restAnswer(RestUser, 'the caller'),
      },
      config: { auth: true },
    },
    async (request) => ok(restUser(await c.profiles.get(callerOf(request).userId))),
  );

  app.patch(
    '/users/me',
    {
      schema: {
        ...secured,
        summary: 'Change name, bio, avatar_url, language or handle',
        body: Type.Object({
          name: Type.Optional(nullableText('1-100 characters')),
          bio: Type.Optional(nullableText('at most 500 characters')),
          avatar_url: Type.Optional(nullableText('https URL, at most 2048 characters')),
          language: Type.Optional(nullableText('BCP 47 tag, at most 35 characters')),
          handle: Type.Optional(text('new handle; one change per 30 days')),
        }),
        response: restAnswer(RestUser, 'the updated user'),
      },
      config: { auth: true },
    },
    async (request) => ok(restUser(await c.profiles.update(callerOf(request).userId, request.body))),
  );

  app.delete(
    '/users/me',
    {
      schema: {
        ...secured,
        summary: 'Delete the account (hard-deleted after 30 days)',
        body: Type.Object({
          pin: text('the PIN'),
          confirmation: text('the phrase DELETE MY ACCOUNT'),
        }),
        response: restAnswer(
          Type.Object({
            deleted: Type.Literal(true),
            hard_delete_at: dateTime('when the account is removed for good'),
          }),
          'the account is deleted',
        ),
      },
      config: { auth: true },
    },
    async (request) => ok(await c.deletion.deleteWithPin(callerOf(request).userId, request.body)),
  );

  app.post(
    '/users/me/pin',
    {
      schema: {
        ...secured,
        summary: 'Change the PIN, giving the current one; every other session ends',
        description:
          'The current PIN counts against the PIN lock. The other sessions end (`session.revoked`, reason `pin_changed`), the phone is told, and `user.pin_changed` is sent. Passkeys and recovery codes stay.',
        body: Type.Object({
          current_pin: text('the PIN now'),
          new_pin: text('the new PIN: 4-6 digits, not easy to guess, not the current one'),
        }),
        response: restAnswer(
          Type.Object({
            changed_at: dateTime('when the PIN changed'),
            sessions_ended: Type.Integer({ description: 'the other sessions the change ended' }),
          }),
          'the PIN is changed',
        ),
      },
      config: { auth: true },
    },
    async (request) => {
      const caller = callerOf(request);
      return ok(await c.pinChange.change(caller.userId, request.body, { session: caller.sessionId }));
    },
  );

  phoneChangeRoutes(fastify, c);
  publicProfileRoutes(fastify, c);
}

/** A new phone number, proven by a code sent to it, then confirmed with that code and the PIN. */
export function phoneChangeRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const codeLimits = otpSendLimits(c.config);
  app.post(
    '/users/me/phone',
    {
      schema: {
        ...secured,
        summary: 'Send a code to the new phone number of the account',
        body: Type.Object({ phone: text('the new number, E.164'), channel: channelField, ...proofFields }),
        response: restAnswer(CodeSent, 'a code was sent to the new number'),
      },
      config: {
        auth: true,
        // The caller's REST limit, and otp/send's for the new number and the address.
        rateLimit: (request) => [...restLimits(request), ...codeLimits(request)],
      },
    },
    async (request) =>
      ok(
        await c.phoneChange.start(callerOf(request).userId, request.body.phone, phoneKey(request), {
          proof: proofOf(request.body, request.ip),
          channel: request.body.channel,
          languageWishes: acceptedLanguages(request.headers['accept-language']),
        }),
      ),
  );

  app.post(
    '/users/me/phone/confirm',
    {
      schema: {
        ...secured,
        summary: 'Move the account to the new phone number: its code and the PIN',
        body: Type.Object({
          phone: text('the new number, as sent to'),
          code: text('the code from the SMS'),
          pin: text('the PIN'),
        }),
        response: restAnswer(RestUser, 'the updated user'),
      },
      config: { auth: true },
    },
    async (request) => ok(restUser(await c.phoneChange.confirm(callerOf(request).userId, request.body))),
  );
}

/** Public profiles and handle checks: no token. */
export function publicProfileRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/users/@:handle',
    {
      schema: {
        tags: ['REST'],
        summary: 'Public profile by handle',
        params: Type.Object({ handle: Type.String() }),
        response: restAnswer(PublicProfile, 'the public profile'),
      },
    },
    async (request) => ok(publicProfile(await c.profiles.publicProfile(request.params.handle))),
  );

  app.get(
    '/users/handle/check',
    {
      schema: {
        tags: ['REST'],
        summary: 'Is a handle available?',
        querystring: Type.Object({ handle: Type.String() }),
        response: restAnswer(
          Type.Object({
            handle: Type.String(),
            available: Type.Boolean(),
            reason: nullable(Type.String({ description: 'invalid, reserved or taken' })),
          }),
          'whether the handle is free',
        ),
      },
      // Spec "Limits": 30 per minute, per client address.
      config: { rateLimit: (request) => [['handle_check_address', request.ip]] },
    },
    async (request) => ok(await c.profiles.checkHandle(request.query.handle)),
  );
}
