// The REST surface's request schemas, in TypeBox: one schema validates a request, types the handler's input
// and documents the route in the OpenAPI document. Formats the spec gives error codes for (phone, PIN,
// handle) are left to the domain, which answers those codes; the schema checks only the JSON types.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { DomainError } from '../../domain/errors.ts';
import type { AuthContext } from '../types.ts';

export const text = (description: string, extra: { maxLength?: number } = {}) =>
  Type.String({ description, ...extra });

/** A text field that may also be null (cleared). */
export const nullableText = (description: string) =>
  Type.Union([Type.String(), Type.Null()], { description });

export const deviceSchema = Type.Object(
  {
    name: Type.Optional(text('device name shown in the session list', { maxLength: 100 })),
    platform: Type.Optional(Type.Enum(['ios', 'android', 'web', 'desktop', 'other'])),
  },
  { description: 'the device this session is on' },
);

/** A path parameter holding an id. */
export const idParams = <K extends string>(name: K) =>
  Type.Object({ [name]: Type.String() } as { [P in K]: ReturnType<typeof Type.String> });

/** Describes the envelope in the OpenAPI document without constraining what is sent. */
export const secured = { security: [{ bearer: [] }], tags: ['REST'] };

/** The caller of a route that needs a bearer token (`config.auth`), as its guard authenticated them. */
export function callerOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new DomainError('INTERNAL_ERROR', 'a route that needs a caller has none');
  return request.auth;
}
