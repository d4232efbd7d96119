// The admin API's answers, as its routes document them: the objects of presenters.ts, in lists `{data}`.
import { type TSchema, Type } from 'typebox';
import { dateTime, errorBody, nullable } from '../openapi-types.ts';
import { Passkey } from '../rest/passkey-schemas.ts';
import { ConnectedApp, KycStatusRecord, RestUser } from '../rest/responses.ts';

const adminError = errorBody('invalid_request, invalid_token, not_found, server_error');

/** An admin route's answers: its own for `status`, then the admin API's error body. */
export const adminAnswer = <T extends object>(answer: T, status = 200) => ({
  [status]: answer,
  '4xx': adminError,
  '5xx': adminError,
});

/** Codes and sign-ins per hour over the last 24 hours, for the console's overview. */
export const Overview = Type.Object({
  end: Type.String({ description: 'the end of the last hour counted' }),
  hours: Type.Integer(),
  series: Type.Object(
    {
      signups: Type.Array(Type.Integer()),
      signins: Type.Array(Type.Integer()),
      otp_sends: Type.Array(Type.Integer()),
      webhook_failures: Type.Array(Type.Integer()),
    },
    { description: 'one count per hour, oldest first' },
  ),
  active_sessions: Type.Integer(),
  active_sessions_estimated: Type.Boolean({
    description: 'true when active_sessions is estimated from a sample (a large table)',
  }),
});

const Resealed = Type.Object({
  resealed: Type.Integer({ description: 'rows sealed again with KEY_ENCRYPTION_KEY' }),
  unreadable: Type.Integer({ description: 'rows neither key opens, left as they are' }),
});

/** What `keys reencrypt` did, per kind of sealed data. */
export const Reencrypted = Type.Object({
  signing_keys: Resealed,
  webhook_secrets: Resealed,
  kyc_photos: Resealed,
  recovery_code_sets: Resealed,
  operator_client_keys: Resealed,
  ssf_push_headers: Resealed,
});

/** A list: `{data: [...]}`. */
export const listOf = <T extends TSchema>(item: T) => Type.Object({ data: Type.Array(item) });

/** Nothing: 204. */
export const NoContent = Type.Unsafe<undefined>({ type: 'null', description: 'done; no body' });

const text = nullable(Type.String());
const when = nullable(dateTime());

export const AdminApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  created_at: dateTime(),
  last_used_at: when,
  revoked_at: when,
});

export const CreatedApiKey = Type.Intersect([
  AdminApiKey,
  Type.Object({ key: Type.String({ description: 'shown once' }) }),
]);

/** A send of a log (a webhook delivery, a back-channel logout): its state and its last attempt. */
const sendState = {
  status: Type.String({ description: 'pending, delivered or failed' }),
  attempts: Type.Integer(),
  next_attempt_at: when,
  last_attempt_at: when,
  last_status_code: nullable(Type.Integer()),
  last_error: text,
  delivered_at: when,
  created_at: dateTime(),
};

export const AdminBackchannelLogout = Type.Object({
  id: Type.String(),
  client_id: Type.String(),
  session_id: Type.String(),
  user_id: Type.String(),
  ...sendState,
});

export const AdminWebhookEndpoint = Type.Object({
  id: Type.String(),
  url: Type.String(),
  description: text,
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  previous_secret_expires_at: when,
  created_at: dateTime(),
  updated_at: dateTime(),
});

export const WithSecret = <T extends TSchema>(object: T) =>
  Type.Intersect([object, Type.Object({ secret: Type.String({ description: 'whsec_...; shown once' }) })]);

export const AdminDelivery = Type.Object({
  id: Type.String(),
  endpoint_id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  ...sendState,
  last_latency_ms: nullable(Type.Integer()),
});

export const AdminAttempt = Type.Object({
  started_at: dateTime(),
  latency_ms: nullable(Type.Integer()),
  status_code: nullable(Type.Integer()),
  error: text,
});

export const AdminVerification = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  status: Type.String({ description: 'pending, verified or rejected' }),
  provider: text,
  level: nullable(Type.String({ description: 'basic or full' })),
  country: text,
  birthday: text,
  document_kind: text,
  documents: Type.Array(Type.String()),
  submitted_at: when,
  decided_at: when,
  reason: text,
  message: text,
  photos_removed_at: when,
});

export const AdminPhoto = Type.Object({
  id: Type.String(),
  kind: Type.String(),
  content_type: Type.String(),
  size: Type.Integer(),
  url: Type.String({ description: 'the photo, with the admin token' }),
});

export const DeliveryWithAttempts = Type.Intersect([
  AdminDelivery,
  Type.Object({ attempt_log: Type.Array(AdminAttempt) }),
]);

export const VerificationForReview = Type.Intersect([
  AdminVerification,
  Type.Object({
    photos: Type.Array(AdminPhoto),
    user: nullable(
      Type.Object({
        id: Type.String(),
        phone: Type.String(),
        handle: Type.String(),
        name: nullable(Type.String()),
      }),
    ),
  }),
]);

/** The REST user with what only an operator sees: e-mail and both locks. */
export const AdminUser = Type.Intersect([
  RestUser,
  Type.Object({
    email: nullable(Type.String()),
    admin_locked_at: when,
    pin_locked_until: when,
    failed_pin_attempts: Type.Integer(),
    external_id: nullable(Type.String({ description: 'the id the account had where it was imported from' })),
    pin_set: Type.Boolean({
      description: 'false for an imported account whose person has not set a PIN yet',
    }),
  }),
]);

export const AccountDetail = Type.Intersect([
  AdminUser,
  Type.Object({
    sessions: Type.Array(
      Type.Object({
        id: Type.String(),
        client_id: Type.String(),
        client_name: nullable(
          Type.String({ description: 'the application’s name (null: the service’s own API)' }),
        ),
        device_name: text,
        platform: Type.String(),
        ip_address: text,
        scope: Type.String(),
        amr: Type.Array(Type.String(), {
          description: 'how the sign-in was proven (RFC 8176; `mnv`: the mobile network, no code)',
        }),
        last_used_at: dateTime(),
        created_at: dateTime(),
      }),
    ),
    sessions_total: Type.Integer(),
    kyc: KycStatusRecord,
    metadata: Type.Record(Type.String(), Type.Unknown(), {
      description: 'the app’s own data about the user (an import’s attributes land here)',
    }),
    apps: Type.Array(ConnectedApp),
    passkeys: Type.Array(Passkey),
    recovery_codes: Type.Object({
      remaining: Type.Integer({ description: 'unused codes of the set; 0 with none' }),
      created_at: when,
      session_id: nullable(Type.String({ description: 'the session it was made from (null: not recorded)' })),
    }),
  }),
]);
