import { presentEvents } from '../../domain/webhooks/webhook-rules.ts';
import type { AdminActionRow } from '../../storage/repositories/admin-actions.ts';
import type { ApiKeyRow } from '../../storage/repositories/api-keys.ts';
import type { LogoutRow } from '../../storage/repositories/backchannel-logouts.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import type { PhotoRow, VerificationRow } from '../../storage/repositories/kyc.ts';
import type { SessionRow } from '../../storage/repositories/sessions.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import type { AttemptRow, DeliveryRow } from '../../storage/repositories/webhook-deliveries.ts';
import type { WebhookEndpointRow } from '../../storage/repositories/webhook-endpoints.ts';
import { restUser } from '../rest/presenters.ts';

/** RFC 7591 names; the secret never appears after creation. */
export const adminClient = (c: ClientRow) => ({
  client_id: c.client_id,
  client_name: c.client_name,
  redirect_uris: c.redirect_uris,
  grant_types: c.grant_types,
  scope: c.scope,
  token_endpoint_auth_method: c.token_endpoint_auth_method,
  first_party: c.first_party,
  backchannel_logout_uri: c.backchannel_logout_uri,
  post_logout_redirect_uris: c.post_logout_redirect_uris,
  logo_uri: c.logo_uri,
  client_uri: c.client_uri,
  policy_uri: c.policy_uri,
  tos_uri: c.tos_uri,
  brand_color: c.brand_color,
  id_token_signed_response_alg: c.id_token_signed_response_alg,
  userinfo_signed_response_alg: c.userinfo_signed_response_alg,
  jwks: c.jwks,
  jwks_uri: c.jwks_uri,
  require_pushed_authorization_requests: c.require_pushed_authorization_requests,
  dpop_bound_access_tokens: c.dpop_bound_access_tokens,
  fapi_2_0: c.fapi_2_0,
  previous_secret_expires_at: c.previous_secret_expires_at,
  created_at: c.created_at,
});

export const adminApiKey = (k: ApiKeyRow) => ({
  id: k.id,
  name: k.name,
  prefix: k.prefix,
  created_at: k.created_at,
  last_used_at: k.last_used_at,
  revoked_at: k.revoked_at,
});

export const adminWebhookEndpoint = (e: WebhookEndpointRow) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: presentEvents(e.event_types),
  enabled: e.enabled,
  // while set and in the future, the previous secret still signs beside the current one
  previous_secret_expires_at: e.previous_secret_expires_at,
  created_at: e.created_at,
  updated_at: e.updated_at,
});

export const adminDelivery = (d: DeliveryRow) => ({
  id: d.id,
  endpoint_id: d.endpoint_id,
  event_id: d.event_id,
  event_type: d.event_type,
  status: d.status,
  attempts: d.attempts,
  next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
  last_attempt_at: d.last_attempt_at,
  last_status_code: d.last_status_code,
  last_error: d.last_error,
  last_latency_ms: d.last_latency_ms,
  delivered_at: d.delivered_at,
  created_at: d.created_at,
});

export const adminAttempt = (a: AttemptRow) => ({
  started_at: a.started_at,
  latency_ms: a.latency_ms,
  status_code: a.status_code,
  error: a.error,
});

/** A back-channel logout; its token is made at each attempt and never kept, so never shown. */
export const adminBackchannelLogout = (b: LogoutRow) => ({
  id: b.id,
  client_id: b.client_id,
  session_id: b.session_id,
  user_id: b.user_id,
  status: b.status,
  attempts: b.attempts,
  next_attempt_at: b.status === 'pending' ? b.next_attempt_at : null,
  last_attempt_at: b.last_attempt_at,
  last_status_code: b.last_status_code,
  last_error: b.last_error,
  delivered_at: b.delivered_at,
  created_at: b.created_at,
});

export const adminVerification = (v: VerificationRow) => ({
  id: v.id,
  user_id: v.user_id,
  status: v.status,
  provider: v.provider,
  level: v.level,
  country: v.country,
  birthday: v.birthday,
  document_kind: v.document_kind,
  documents: v.documents ?? [],
  submitted_at: v.submitted_at,
  decided_at: v.decided_at,
  reason: v.reason,
  message: v.message,
  photos_removed_at: v.photos_removed_at,
});

export const adminPhoto = (verificationId: string, p: PhotoRow) => ({
  id: p.id,
  kind: p.kind,
  content_type: p.content_type,
  size: p.size,
  url: `/admin/v1/kyc/verifications/${verificationId}/photos/${p.id}`,
});

/** The REST user with what only an operator sees: e-mail, both locks, and the session list. */
export const adminUser = (u: UserRow) => ({
  ...restUser(u),
  email: u.email,
  admin_locked_at: u.admin_locked_at,
  pin_locked_until: u.locked_until,
  failed_pin_attempts: u.failed_pin_attempts,
  external_id: u.external_id,
  pin_set: u.pin_hash !== null,
});

export const adminSession = (s: SessionRow, clientName?: string) => ({
  id: s.id,
  client_id: s.client_id,
  client_name: clientName ?? null,
  device_name: s.device_name,
  platform: s.platform,
  ip_address: s.ip_address,
  scope: s.scope,
  amr: s.amr ?? ['pwd'],
  last_used_at: s.last_used_at,
  created_at: s.created_at,
});

/** One row of the operators' trail. */
export const adminAction = (a: AdminActionRow) => ({
  id: Number(a.id),
  at: a.at,
  source: a.source,
  address: a.address,
  request_id: a.request_id,
  method: a.method,
  route: a.route,
  params: a.params,
  status: a.status,
  ...(a.on_name === undefined ? {} : { on: a.on_name }),
});
