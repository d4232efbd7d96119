import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { ATTESTATION_CHALLENGE_MAX_LENGTH } from '../../domain/app-attestation/attestation-challenges.ts';
import { ok } from './envelope.ts';
import { restAnswer } from './responses.ts';
import { text } from './schemas.ts';

// An app's proof that it is the genuine app on a genuine device: the challenge it attests over, and an iOS
// app's App Attest key, registered once. A send then carries the attestation (`attestationField`).

/** The services these routes use. */
type Services = Pick<Container, 'appAttestation'>;

const challenge = text('what GET /auth/attestation/challenge answered', {
  maxLength: ATTESTATION_CHALLENGE_MAX_LENGTH,
});

/** A send's attestation: a Play Integrity token, or an App Attest assertion. */
export const attestationField = Type.Optional(
  Type.Union(
    [
      Type.Object(
        {
          platform: Type.Literal('android'),
          package: Type.Optional(
            text('the app’s package, where ANDROID_APPS names several', { maxLength: 255 }),
          ),
          challenge,
          token: text('the Play Integrity token, over the send’s binding', { maxLength: 16384 }),
        },
        { additionalProperties: false },
      ),
      Type.Object(
        {
          platform: Type.Literal('ios'),
          challenge,
          key_id: text('the App Attest key id, registered at /auth/attestation/apple/keys', {
            maxLength: 100,
          }),
          assertion: text('the App Attest assertion (base64), over the send’s binding', { maxLength: 8192 }),
        },
        { additionalProperties: false },
      ),
    ],
    {
      description:
        'the app’s attestation, bound to "challenge|phone|purpose": where it holds, the send needs no proof of a person',
    },
  ),
);

export function attestationRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['REST'];
  app.get(
    '/auth/attestation/challenge',
    {
      schema: {
        tags,
        summary: 'A challenge for an app’s attestation of its next code send (single use, 120 seconds)',
        response: restAnswer(
          Type.Object({ challenge: Type.String(), expires_in: Type.Integer() }),
          'the challenge to attest over',
        ),
      },
    },
    async () => ok(c.appAttestation.challenge()),
  );
  app.post(
    '/auth/attestation/apple/keys',
    {
      schema: {
        tags,
        summary: 'Register an iOS app’s App Attest key, from its attestation over a challenge',
        body: Type.Object({
          key_id: text('the key id DCAppAttestService generated (base64)', { maxLength: 100 }),
          attestation: text('the attestation object (base64)', { maxLength: 16384 }),
          challenge,
        }),
        response: restAnswer(
          Type.Object({ key_id: Type.String(), app_id: Type.String() }),
          'the key is registered for the app',
        ),
      },
    },
    async (request) => ok(await c.appAttestation.registerAppleKey(request.body)),
  );
}
