import { Type } from 'typebox';

// The schemas of the Shared Signals endpoints (SSF 1.0 §8.1): what they take and answer.

export const streamId = Type.String({ description: 'the stream, as its configuration names it' });

/** A client authenticates as at the token endpoint: Basic, or these members of the body. */
export const clientFields = {
  client_id: Type.Optional(Type.Unknown({ description: 'with client_secret or client_assertion' })),
  client_secret: Type.Optional(Type.Unknown({ description: 'client_secret_post' })),
  client_assertion_type: Type.Optional(Type.Unknown({ description: 'private_key_jwt' })),
  client_assertion: Type.Optional(Type.Unknown({ description: 'private_key_jwt' })),
};

const Delivery = Type.Object({
  method: Type.String({ description: 'urn:ietf:rfc:8935 (push) or urn:ietf:rfc:8936 (poll)' }),
  endpoint_url: Type.Optional(
    Type.Union([Type.String({ maxLength: 2000 }), Type.Null()], {
      description: 'push: where SETs go (HTTPS); poll: set by Callsign',
    }),
  ),
  authorization_header: Type.Optional(
    Type.String({
      maxLength: 2000,
      description: 'push: the Authorization header to send; never shown again',
    }),
  ),
});

export const StreamSettings = {
  events_requested: Type.Optional(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20 })),
  description: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  delivery: Type.Optional(Delivery),
};

/** SSF §8.1.1: a stream's configuration. */
export const StreamConfiguration = Type.Object({
  stream_id: Type.String(),
  iss: Type.String(),
  aud: Type.String({ description: 'the client the stream is for' }),
  events_supported: Type.Array(Type.String()),
  events_requested: Type.Array(Type.String()),
  events_delivered: Type.Array(Type.String()),
  delivery: Type.Object({ method: Type.String(), endpoint_url: Type.String() }),
  min_verification_interval: Type.Integer(),
  description: Type.Optional(Type.String()),
});

export const StreamStatus = Type.Object({
  stream_id: Type.String(),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('paused'), Type.Literal('disabled')]),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
});
