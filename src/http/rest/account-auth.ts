import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { ok } from './envelope.ts';
import { phoneKey } from './otp.ts';
import { restUser, signUpUser } from './presenters.ts';
import { body, deviceSchema, envelopeResponses, str } from './schemas.ts';

const tokensDescription = '{user, access_token, refresh_token, expires_in}';

/** Sign-up, sign-in and PIN reset: the three ways to open a REST session. */
export function accountAuthRoutes(app: FastifyInstance, c: Container) {
  app.post(
    '/auth/signup',
    {
      schema: {
        tags: ['REST'],
        summary: 'Create the account of a verified phone',
        body: body(['temp_token', 'pin', 'handle'], {
          temp_token: str('from POST /auth/otp/verify with purpose signup'),
          pin: str('4-6 digits, not trivial (D8)'),
          handle: str('3-30 characters of a-z, 0-9, _ starting with a letter (D11)'),
          name: str('display name, 1-100 characters'),
          device: deviceSchema,
        }),
        response: envelopeResponses(tokensDescription),
      },
    },
    async (request) => {
      const r = await c.accounts.signUp(request.body as Record<string, unknown>, request.ip);
      return ok({ ...r, user: signUpUser(r.user) });
    },
  );

  app.post(
    '/auth/signin',
    {
      schema: {
        tags: ['REST'],
        summary: 'Sign in with phone and PIN',
        body: body(['phone', 'pin'], {
          phone: str('E.164 phone number'),
          pin: str('the PIN'),
          device: deviceSchema,
        }),
        response: envelopeResponses(tokensDescription),
      },
      config: {
        // Spec "Limits" and D28: 5 per 15 minutes per phone, 50 per 15 minutes per client address.
        rateLimit: (request) => {
          const phone = phoneKey(request);
          return [
            ['signin_address', request.ip],
            ...(phone ? [['signin_phone', phone] as ['signin_phone', string]] : []),
          ];
        },
      },
    },
    async (request) => {
      const r = await c.accounts.signIn(
        request.body as Record<string, unknown>,
        request.ip,
        phoneKey(request),
      );
      return ok({ ...r, user: restUser(r.user) });
    },
  );

  app.post(
    '/auth/pin/reset',
    {
      schema: {
        tags: ['REST'],
        summary: 'Set a new PIN after an OTP with purpose pin_reset (D10)',
        body: body(['temp_token', 'pin'], {
          temp_token: str('from POST /auth/otp/verify with purpose pin_reset'),
          pin: str('the new PIN'),
          device: deviceSchema,
        }),
        response: envelopeResponses(tokensDescription),
      },
    },
    async (request) => {
      const r = await c.accounts.resetPin(request.body as Record<string, unknown>, request.ip);
      return ok({ ...r, user: restUser(r.user) });
    },
  );
}
