// The phone a REST request names, as its limits count it: read once per request and shared by the routes that
// count a number (code sends, sign-in, PIN reset, a phone change), so no route lends a helper to another.
import type { FastifyRequest } from 'fastify';
import { parsePhone } from '../../domain/phone.ts';

const phoneKeys = new WeakMap<FastifyRequest, string | undefined>();

/**
 * The normalised phone of the body, when it has one, so spellings of one number share a counter. Parsed once
 * per request: the route's handler asks again for what its service would parse (a parse is some 0.1 ms). The
 * limits are counted before the body is validated, so the body is looked at as it came.
 */
export function phoneKey(request: FastifyRequest): string | undefined {
  if (phoneKeys.has(request)) return phoneKeys.get(request);
  const body: unknown = request.body;
  let key: string | undefined;
  try {
    key =
      typeof body === 'object' && body !== null && 'phone' in body ? parsePhone(body.phone).e164 : undefined;
  } catch {
    key = undefined;
  }
  phoneKeys.set(request, key);
  return key;
}

/** The request's phone in E.164: the one its limits parsed, or INVALID_PHONE. */
export const e164Of = (request: FastifyRequest, phone: string) => phoneKey(request) ?? parsePhone(phone).e164;
