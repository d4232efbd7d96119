import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Container } from '../../container.ts';
import { restLimits } from '../plugins/rest-guards.ts';
import type { AuthContext } from '../types.ts';
import { ok } from './envelope.ts';
import { otpSendLimits, phoneKey } from './otp.ts';
import { publicProfile, restUser } from './presenters.ts';
import { body, envelopeResponses, str } from './schemas.ts';

const me = (request: FastifyRequest) => request.auth as AuthContext;
const secured = { security: [{ bearer: [] }], tags: ['REST'] };

export function userRoutes(app: FastifyInstance, c: Container) {
  app.get(
    '/users/me',
    {
      schema: {
        ...secured,
        summary: 'The caller (REST User object)',
        response: envelopeResponses('REST User'),
      },
      config: { auth: true },
    },
    async (request) => ok(restUser(await c.profiles.get(me(request).userId))),
  );

  app.patch(
    '/users/me',
    {
      schema: {
        ...secured,
        summary: 'Change name, bio, avatar_url, language or handle (D12, D13)',
        body: {
          type: 'object',
          properties: {
            name: { type: ['string', 'null'], description: '1-100 characters' },
            bio: { type: ['string', 'null'], description: 'at most 500 characters' },
            avatar_url: { type: ['string', 'null'], description: 'https URL, at most 2048 characters' },
            language: { type: ['string', 'null'], description: 'BCP 47 tag, at most 35 characters' },
            handle: str('new handle; one change per 30 days'),
          },
        },
        response: envelopeResponses('the updated REST User'),
      },
      config: { auth: true },
    },
    async (request) =>
      ok(restUser(await c.profiles.update(me(request).userId, request.body as Record<string, unknown>))),
  );

  app.delete(
    '/users/me',
    {
      schema: {
        ...secured,
        summary: 'Delete the account (hard-deleted after 30 days)',
        body: body(['pin', 'confirmation'], {
          pin: str('the PIN'),
          confirmation: str('the phrase DELETE MY ACCOUNT'),
        }),
        response: envelopeResponses('{deleted: true, hard_delete_at}'),
      },
      config: { auth: true },
    },
    async (request) =>
      ok(await c.deletion.deleteWithPin(me(request).userId, request.body as Record<string, unknown>)),
  );

  phoneChangeRoutes(app, c);
  publicProfileRoutes(app, c);
}

/** A new phone number, proven by a code sent to it, then confirmed with that code and the PIN. */
export function phoneChangeRoutes(app: FastifyInstance, c: Container) {
  app.post(
    '/users/me/phone',
    {
      schema: {
        ...secured,
        summary: 'Send a code to the new phone number of the account (P74)',
        body: body(['phone'], { phone: str('the new number, E.164') }),
        response: envelopeResponses('{expires_in, message}'),
      },
      config: {
        auth: true,
        // The caller's REST limit, and otp/send's for the new number and the address (D28).
        rateLimit: (request) => [...restLimits(request), ...otpSendLimits(request)],
      },
    },
    async (request) =>
      ok(
        await c.phoneChange.start(
          me(request).userId,
          (request.body as Record<string, unknown>).phone,
          phoneKey(request),
        ),
      ),
  );

  app.post(
    '/users/me/phone/confirm',
    {
      schema: {
        ...secured,
        summary: 'Move the account to the new phone number: its code and the PIN (P74)',
        body: body(['phone', 'code', 'pin'], {
          phone: str('the new number, as sent to'),
          code: str('the code from the SMS'),
          pin: str('the PIN'),
        }),
        response: envelopeResponses('the updated REST User'),
      },
      config: { auth: true },
    },
    async (request) =>
      ok(restUser(await c.phoneChange.confirm(me(request).userId, request.body as Record<string, unknown>))),
  );
}

/** Public profiles and handle checks: no token. */
export function publicProfileRoutes(app: FastifyInstance, c: Container) {
  app.get(
    '/users/@:handle',
    {
      schema: {
        tags: ['REST'],
        summary: 'Public profile by handle',
        params: { type: 'object', properties: { handle: { type: 'string' } } },
        response: envelopeResponses('{id, handle, name, avatar_url, bio, kyc_status, created_at}'),
      },
    },
    async (request) =>
      ok(publicProfile(await c.profiles.publicProfile((request.params as { handle: string }).handle))),
  );

  app.get(
    '/users/handle/check',
    {
      schema: {
        tags: ['REST'],
        summary: 'Is a handle available? (D11)',
        querystring: { type: 'object', required: ['handle'], properties: { handle: { type: 'string' } } },
        response: envelopeResponses('{handle, available, reason}'),
      },
      // Spec "Limits": 30 per minute, per client address (D28).
      config: { rateLimit: (request) => [['handle_check_address', request.ip]] },
    },
    async (request) => ok(await c.profiles.checkHandle((request.query as { handle: string }).handle)),
  );
}
