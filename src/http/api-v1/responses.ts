// /api/v1's answers, as its routes document them (spec "User (OAuth surface, /api/v1)").
import { Type } from 'typebox';
import { dateTime, errorBody, nullable } from '../openapi-types.ts';

const apiError = errorBody(
  'invalid_request, invalid_email, invalid_token, insufficient_scope, user_not_found, email_taken, file_too_large, invalid_file_type, too_many_requests',
);

/** An /api/v1 route's answers: its own for `status`, then the spec's error body. */
export const apiAnswer = <T extends object>(answer: T, status = 200) => ({
  [status]: answer,
  '4xx': apiError,
  '5xx': apiError,
});

/** Nothing: 204. */
export const NoContent = Type.Unsafe<undefined>({ type: 'null', description: 'done; no body' });

/**
 * A user as a token's scopes show it: `phone` needs `phone`, `email` needs `email`, name and avatar need
 * `profile`, the KYC fields need `kyc`; a field the token may not see is left out. Typed as the map the
 * handler builds.
 */
export const ScopedUser = Type.Unsafe<Record<string, unknown>>(
  Type.Object(
    {
      id: Type.String({ format: 'uuid' }),
      phone: Type.Optional(Type.String()),
      name: Type.Optional(nullable(Type.String())),
      email: Type.Optional(nullable(Type.String())),
      avatar_url: Type.Optional(nullable(Type.String())),
      kyc_status: Type.Optional(Type.String({ description: 'NONE, PENDING, VERIFIED or REJECTED' })),
      kyc_country: Type.Optional(nullable(Type.String())),
      created_at: Type.Optional(dateTime()),
      updated_at: Type.Optional(dateTime()),
    },
    {
      examples: [
        { id: '0b0e7c2a-5d7e-4a53-9d8e-3c1f2a4b5c6d', name: 'Ada', created_at: '2026-11-26T00:00:00Z' },
      ],
    },
  ),
);

/** A user, server to server. */
export const ServerUser = Type.Object({
  id: Type.String({ format: 'uuid' }),
  phone: Type.String(),
  handle: Type.String(),
  name: nullable(Type.String()),
  kyc_status: Type.String({ description: 'NONE, PENDING, VERIFIED or REJECTED' }),
  kyc_country: nullable(Type.String()),
  created_at: dateTime(),
  external_id: nullable(Type.String({ description: 'the id the account had where it was imported from' })),
  metadata: Type.Record(Type.String(), Type.Unknown(), {
    description: 'the app’s own data about the user (an import’s attributes land here)',
  }),
});

export const UsersPage = Type.Object({
  data: Type.Array(
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      phone: Type.String(),
      handle: Type.String(),
      name: nullable(Type.String()),
      kyc_status: Type.String(),
      external_id: nullable(
        Type.String({ description: 'the id the account had where it was imported from' }),
      ),
    }),
  ),
  has_more: Type.Boolean({ description: 'ask again with starting_after the last id for more' }),
});

export const Metadata = Type.Object({
  metadata: Type.Record(Type.String(), Type.Unknown(), { description: 'the stored metadata, merged' }),
});

export const AvatarUrl = Type.Object({
  avatar_url: nullable(Type.String({ description: 'served by Callsign' })),
});
