import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { OTP_PURPOSES } from '../../domain/codes/purposes.ts';
import { acceptedLanguages, type Language, pickLanguage } from '../../i18n/languages.ts';
import { ok } from './envelope.ts';
import { networkReturnRoutes } from './network-return.ts';
import { channelField, otpSendLimits, proofFields, proofOf } from './otp.ts';
import { e164Of } from './phone-key.ts';
import { CodeSent, restAnswer } from './responses.ts';
import { text } from './schemas.ts';

// A phone number proven silently by its mobile network: the start (or a code at once where no check can be
// tried), the device's return from the operator, the app's completion, and an app's operator token. Each
// start counts against the limits of a code send; a code sent instead is sent as `/auth/otp/send` sends it.

/** The services these routes use. */
type Services = Pick<Container, 'config' | 'logos' | 'networkVerification' | 'operatorClientKey'>;

const purpose = Type.Enum(OTP_PURPOSES, { description: 'signup, pin_reset, or signin' });
const phone = text('E.164 phone number, e.g. +14155550100');
const language = Type.Optional(text('a BCP 47 language tag for a code sent instead', { maxLength: 35 }));
const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const verificationId = Type.String({ pattern: UUID, description: 'what /auth/network/start answered' });

const CodeInstead = Type.Object(
  { method: Type.Literal('code'), ...CodeSent.properties },
  {
    description:
      'no check could be tried, or the network could not say: a code was sent as /auth/otp/send sends it',
  },
);
const Proven = Type.Object(
  {
    method: Type.Literal('network'),
    verified: Type.Literal(true),
    temp_token: Type.String(),
    expires_in: Type.Integer(),
  },
  { description: 'the mobile network proved the number: the temp token is for the next step' },
);
const Started = Type.Object(
  {
    method: Type.Literal('network'),
    verification_id: Type.String({ format: 'uuid' }),
    url: Type.String({ description: 'open it on the device, over its mobile data (not Wi-Fi)' }),
    expires_in: Type.Integer({ description: 'seconds the check lives' }),
  },
  { description: 'the device must open `url`; then call /auth/network/complete' },
);
const Pending = Type.Object(
  { method: Type.Literal('pending'), retry_after_seconds: Type.Integer() },
  { description: 'the device has not come back yet: ask again after `retry_after_seconds`' },
);

/** The language a request asks for: the body's, else Accept-Language's, else the service's default. */
const languageOf = (c: Services, wish: string | undefined, header: string | undefined): Language =>
  pickLanguage([wish, ...acceptedLanguages(header)], c.config.defaultLanguage);

export function networkRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['REST'];
  app.post(
    '/auth/network/start',
    {
      schema: {
        tags,
        summary: 'Prove a phone number by its mobile network, silently; a code where that cannot be tried',
        body: Type.Object({ phone, purpose, channel: channelField, language, ...proofFields }),
        response: restAnswer(
          Type.Union([Started, CodeInstead]),
          'a check to open on the device, or a code sent',
        ),
      },
      config: { rateLimit: otpSendLimits(c.config) },
    },
    async (request) => {
      const { purpose, channel } = request.body;
      const options = {
        proof: proofOf(request.body, request.ip),
        channel,
        language: languageOf(c, request.body.language, request.headers['accept-language']),
      };
      return ok(await c.networkVerification.start(e164Of(request, request.body.phone), purpose, options));
    },
  );

  networkReturnRoutes(fastify, c);

  app.post(
    '/auth/network/complete',
    {
      schema: {
        tags,
        summary: 'The silent check’s answer: a temp token, a code sent instead, or not yet',
        body: Type.Object({
          verification_id: verificationId,
          channel: channelField,
          language,
          returned: Type.Optional(
            Type.Object(
              {
                request_id: Type.Optional(Type.String({ maxLength: 200 })),
                code: Type.Optional(Type.String({ maxLength: 200 })),
                error_description: Type.Optional(Type.String({ maxLength: 200 })),
              },
              {
                description:
                  'with Vonage, what the check URL’s last answer carried (its body, or its redirect’s fragment), for an app that read it itself',
              },
            ),
          ),
        }),
        response: restAnswer(Type.Union([Proven, CodeInstead, Pending]), 'what the network said'),
      },
    },
    async (request) => {
      const { verification_id, channel } = request.body;
      const wish = request.body.language;
      const chosen = wish ? languageOf(c, wish, request.headers['accept-language']) : undefined;
      const options = { channel, language: chosen };
      return ok(await c.networkVerification.complete(verification_id, options, request.body.returned));
    },
  );

  app.post(
    '/auth/network/verify',
    {
      schema: {
        tags,
        summary:
          'Prove a phone number by an operator token the app holds (GSMA TS.43); a code where it cannot',
        body: Type.Object({
          phone,
          purpose,
          operator_token: text('the operator token the app was given', { maxLength: 4096 }),
          channel: channelField,
          language,
          ...proofFields,
        }),
        response: restAnswer(Type.Union([Proven, CodeInstead]), 'what the network said'),
      },
      config: { rateLimit: otpSendLimits(c.config) },
    },
    async (request) => {
      const { purpose, channel, operator_token } = request.body;
      const options = {
        proof: proofOf(request.body, request.ip),
        channel,
        language: languageOf(c, request.body.language, request.headers['accept-language']),
      };
      const e164 = e164Of(request, request.body.phone);
      return ok(await c.networkVerification.verifyOperatorToken(e164, purpose, operator_token, options));
    },
  );
}
