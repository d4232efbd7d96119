import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import type { Config } from '../../config/config.ts';
import type { RateLimitName } from '../../config/rate-limits.ts';
import { OTP_PURPOSES } from '../../domain/codes/purposes.ts';
import { parsePhone } from '../../domain/phone.ts';
import type { SendProof } from '../../domain/sms-defence/person-check.ts';
import { blockCounting, codeSendLimits } from '../../domain/sms-defence/send-limits.ts';
import { acceptedLanguages, pickLanguage } from '../../i18n/languages.ts';
import { attestationField } from './attestation.ts';
import { ok } from './envelope.ts';
import { e164Of, phoneKey } from './phone-key.ts';
import { ChallengeSchema, CodeSent, restAnswer } from './responses.ts';
import { text } from './schemas.ts';

/** The services these routes use. */
type Services = Pick<Container, 'challenges' | 'config' | 'otp'>;

/** A REST request for a code counts against its address, its number and the number's block (send-limits.ts). */
export function otpSendLimits(config: Pick<Config, 'smsDestinations' | 'testPhoneNumbers'>) {
  const counting = blockCounting(config);
  return (request: FastifyRequest): Array<[RateLimitName, string]> =>
    codeSendLimits(request.ip, phoneKey(request), counting);
}

const purpose = Type.Enum(OTP_PURPOSES, {
  description: 'signup, pin_reset, or signin (a code to sign in with, where the service offers it)',
});
const phone = text('E.164 phone number, e.g. +14155550100');

/** A send's proof of a person, when it asks for one (CHALLENGE_REQUIRED): the fields of its body. */
export const proofFields = {
  challenge_solution: Type.Optional(
    text('ALTCHA payload: base64 of {algorithm, challenge, number, salt, signature}', { maxLength: 4096 }),
  ),
  captcha_token: Type.Optional(
    text('the token of the CAPTCHA widget, where the service uses a hosted CAPTCHA', { maxLength: 4096 }),
  ),
  attestation: attestationField,
};

/** The channel a code should go by; it falls back as the service is configured when it has no route. */
export const channelField = Type.Optional(
  Type.Enum(['sms', 'whatsapp', 'voice'], { description: 'sms (the default), whatsapp or voice' }),
);

/** The language of the code's text; else Accept-Language's, else the service's default. */
const languageField = Type.Optional(
  text('a BCP 47 language tag (en, es, pt-BR, fr, hi, id, ar, sw, tr, bn); others fall back', {
    maxLength: 35,
  }),
);

/** The proof a send's body carries, with the address it came from. */
export const proofOf = (
  body: { challenge_solution?: string; captcha_token?: string; attestation?: SendProof['attestation'] },
  address: string,
): SendProof => ({
  challengeSolution: body.challenge_solution,
  captchaToken: body.captcha_token,
  attestation: body.attestation,
  address,
});

export function otpRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/auth/challenge',
    {
      schema: {
        tags: ['REST'],
        summary: 'A proof-of-work challenge (ALTCHA), or the CAPTCHA to show, for a send that asks for one',
        response: restAnswer(
          ChallengeSchema,
          'a signed challenge, valid 10 minutes; or, where the service uses a hosted CAPTCHA, its widget',
        ),
      },
    },
    async () => ok(await c.challenges.issue()),
  );
  app.post(
    '/auth/otp/send',
    {
      schema: {
        tags: ['REST'],
        summary: 'Send a one-time code by SMS, WhatsApp or a voice call',
        body: Type.Object(
          { phone, purpose, channel: channelField, language: languageField, ...proofFields },
          { examples: [{ phone: '+14155550123', purpose: 'signup' }] },
        ),
        response: restAnswer(CodeSent, 'a code was sent'),
      },
      config: { rateLimit: otpSendLimits(c.config) },
    },
    async (request) => {
      const { phone, purpose, channel } = request.body;
      const proof = proofOf(request.body, request.ip);
      const wishes = [request.body.language, ...acceptedLanguages(request.headers['accept-language'])];
      const language = pickLanguage(wishes, c.config.defaultLanguage);
      return ok(await c.otp.sendCode(e164Of(request, phone), purpose, { proof, channel, language }));
    },
  );

  app.post(
    '/auth/otp/verify',
    {
      schema: {
        tags: ['REST'],
        summary: 'Verify a one-time code; answers a temp_token',
        body: Type.Object(
          { phone, code: text('the code from the SMS'), purpose },
          { examples: [{ phone: '+14155550123', code: '123456', purpose: 'signup' }] },
        ),
        response: restAnswer(
          Type.Object({
            verified: Type.Literal(true),
            temp_token: Type.String(),
            expires_in: Type.Integer(),
          }),
          'the phone is verified: the temp token is for the next step',
        ),
      },
    },
    async (request) => {
      const { code, purpose } = request.body;
      return ok(await c.otp.verify(parsePhone(request.body.phone).e164, code, purpose));
    },
  );
}
