import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { fieldError } from '../../domain/errors.ts';
import { restLimits } from '../plugins/rest-guards.ts';
import { ok } from './envelope.ts';
import { phoneKey } from './phone-key.ts';
import { restUser } from './presenters.ts';
import { AfterPinReset, RestUser, restAnswer, SignedIn } from './responses.ts';
import { deviceSchema, text } from './schemas.ts';

/** The services these routes use. */
type Services = Pick<Container, 'accounts' | 'codeSignIn' | 'recoveryCodes' | 'recoverySignIn' | 'signIn'>;

const tokensDescription = '{user, access_token, refresh_token, expires_in}';

/** Sign-up, sign-in (by PIN or by code) and PIN reset: the ways to open a REST session. */
export function accountAuthRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/auth/signup',
    {
      schema: {
        tags: ['REST'],
        summary: 'Create the account of a verified phone',
        body: Type.Object(
          {
            temp_token: text('from POST /auth/otp/verify with purpose signup'),
            pin: text('4-6 digits, not trivial'),
            handle: text('3-30 characters of a-z, 0-9, _ starting with a letter'),
            name: Type.Optional(text('display name, 1-100 characters')),
            device: Type.Optional(deviceSchema),
          },
          { examples: [{ temp_token: 'tt_...', pin: '480715', handle: 'ada', name: 'Ada' }] },
        ),
        response: restAnswer(SignedIn(RestUser), tokensDescription),
      },
    },
    async (request) => {
      const r = await c.accounts.signUp(request.body, request.ip);
      return ok({ ...r, user: restUser(r.user) });
    },
  );

  signInRoute(app, c);

  app.post(
    '/auth/pin/reset',
    {
      schema: {
        tags: ['REST'],
        summary: 'Set a new PIN after a code verified with purpose pin_reset, or with a recovery code',
        body: Type.Object({
          temp_token: Type.Optional(text('from POST /auth/otp/verify with purpose pin_reset')),
          phone: Type.Optional(text('with recovery_code: the account’s number')),
          recovery_code: Type.Optional(text('one of the account’s recovery codes, instead of temp_token')),
          pin: text('the new PIN'),
          device: Type.Optional(deviceSchema),
        }),
        response: restAnswer(AfterPinReset, `${tokensDescription} and what the reset removed`),
      },
      config: {
        // A recovery code is guessed like a PIN: the sign-in limits of the number and the address count it.
        rateLimit: (request) => {
          const phone = phoneKey(request);
          const guessed = phone && carriesRecoveryCode(request.body);
          return guessed
            ? [
                ['signin_address', request.ip],
                ['signin_phone', phone],
              ]
            : restLimits(request);
        },
      },
    },
    async (request) => {
      const { temp_token, phone, recovery_code, pin, device } = request.body;
      if (temp_token !== undefined) {
        const r = await c.accounts.resetPin({ temp_token, pin, device }, request.ip);
        return ok({ ...r, user: restUser(r.user) });
      }
      if (phone === undefined || recovery_code === undefined)
        throw fieldError('INVALID_REQUEST', 'temp_token', 'send temp_token, or phone and recovery_code');
      const r = await c.recoveryCodes.resetPin({ phone, recovery_code, pin, device }, request.ip);
      return ok({ ...r, user: restUser(r.user) });
    },
  );
}

/** Whether a request's body (not yet validated) carries a recovery code. */
const carriesRecoveryCode = (body: unknown) =>
  typeof body === 'object' && body !== null && 'recovery_code' in body;

/** Sign-in: phone and PIN, or the temp token of a code verified for purpose signin. */
function signInRoute(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/auth/signin',
    {
      schema: {
        tags: ['REST'],
        summary:
          'Sign in with phone and PIN, with a code verified for purpose signin, or (where PINs are off) a recovery code',
        body: Type.Object(
          {
            phone: Type.Optional(text('E.164 phone number (with pin)')),
            pin: Type.Optional(text('the PIN (with phone)')),
            temp_token: Type.Optional(
              text('from POST /auth/otp/verify with purpose signin, instead of phone and pin'),
            ),
            recovery_code: Type.Optional(
              text('with phone, where PINs are off: one of the account’s recovery codes, to sign in once'),
            ),
            device: Type.Optional(deviceSchema),
          },
          {
            examples: [
              { phone: '+14155550123', pin: '480715', device: { name: 'Pixel 8', platform: 'android' } },
              { temp_token: 'tt_...' },
            ],
          },
        ),
        response: restAnswer(SignedIn(RestUser), tokensDescription),
      },
      config: {
        // Spec "Limits": 5 per 15 minutes per phone, 50 per 15 minutes per client address (a recovery code too).
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
      const { phone, pin, temp_token, recovery_code, device } = request.body;
      if (
        recovery_code !== undefined &&
        phone !== undefined &&
        pin === undefined &&
        temp_token === undefined
      ) {
        const r = await c.signIn.rest(c.recoverySignIn.proof(phone, recovery_code), device, request.ip);
        return ok({ ...r, user: restUser(r.user) });
      }
      if (temp_token !== undefined && phone === undefined && pin === undefined) {
        const r = await c.signIn.rest(c.codeSignIn.proof(temp_token), device, request.ip);
        return ok({ ...r, user: restUser(r.user) });
      }
      if (phone === undefined || pin === undefined || temp_token !== undefined || recovery_code !== undefined)
        throw fieldError(
          'INVALID_REQUEST',
          phone === undefined ? 'phone' : 'pin',
          'send phone and pin, or temp_token',
        );
      const proof = c.accounts.pinProof(phone, pin, phoneKey(request));
      const r = await c.signIn.rest(proof, device, request.ip);
      return ok({ ...r, user: restUser(r.user) });
    },
  );
}
