import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimitName } from '../../config/rate-limits.ts';
import type { Container } from '../../container.ts';
import { parsePhone } from '../../domain/phone.ts';
import { ok } from './envelope.ts';
import { body, envelopeResponses, str } from './schemas.ts';

const phoneKeys = new WeakMap<FastifyRequest, string | undefined>();

/**
 * The normalised phone of the body, when it has one, so spellings of one number share a counter. Parsed once
 * per request: the route's handler asks again for what its service would parse (a parse is some 0.1 ms).
 */
export function phoneKey(request: FastifyRequest): string | undefined {
  if (phoneKeys.has(request)) return phoneKeys.get(request);
  let key: string | undefined;
  try {
    key = parsePhone((request.body as { phone?: unknown } | undefined)?.phone).e164;
  } catch {
    key = undefined;
  }
  phoneKeys.set(request, key);
  return key;
}

/** Spec "Limits" and D28: a code sent counts 3 per hour per phone and 10 per hour per client address. */
export function otpSendLimits(request: FastifyRequest): Array<[RateLimitName, string]> {
  const phone = phoneKey(request);
  return [
    ['otp_send_address', request.ip],
    ...(phone ? [['otp_send_phone', phone] as [RateLimitName, string]] : []),
  ];
}

const phoneAndPurpose = {
  phone: str('E.164 phone number, e.g. +14155550100'),
  purpose: { type: 'string', enum: ['signup', 'pin_reset'] },
};

export function otpRoutes(app: FastifyInstance, c: Container) {
  app.post(
    '/auth/otp/send',
    {
      schema: {
        tags: ['REST'],
        summary: 'Send a one-time code by SMS',
        body: body(['phone', 'purpose'], phoneAndPurpose),
        response: envelopeResponses('{expires_in, message}'),
      },
      config: { rateLimit: otpSendLimits },
    },
    async (request) => {
      const b = request.body as Record<string, unknown>;
      return ok(await c.otp.send(b.phone, b.purpose, phoneKey(request)));
    },
  );

  app.post(
    '/auth/otp/verify',
    {
      schema: {
        tags: ['REST'],
        summary: 'Verify a one-time code; answers a temp_token',
        body: body(['phone', 'code', 'purpose'], { ...phoneAndPurpose, code: str('the code from the SMS') }),
        response: envelopeResponses('{verified, temp_token, expires_in}'),
      },
    },
    async (request) => {
      const b = request.body as Record<string, unknown>;
      return ok(await c.otp.verify(b.phone, b.code, b.purpose));
    },
  );
}
