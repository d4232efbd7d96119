import type { ConsentedApp } from '../../storage/repositories/consents.ts';
import type { PasskeyRow } from '../../storage/repositories/passkeys.ts';
import type { SessionRow } from '../../storage/repositories/sessions.ts';
import type { UserRow } from '../../storage/repositories/users.ts';

/** The REST User object: every field present, null when never set. */
export const restUser = (u: UserRow) => ({
  id: u.id,
  phone: u.phone,
  phone_verified: u.phone_verified,
  handle: u.handle,
  name: u.name,
  avatar_url: u.avatar_url,
  bio: u.bio,
  country: u.country,
  language: u.language,
  kyc_status: u.kyc_status,
  kyc_country: u.kyc_country,
  kyc_verified_at: u.kyc_verified_at,
  created_at: u.created_at,
  updated_at: u.updated_at,
});

/** Spec "Public profile": never phone, country or language. */
export const publicProfile = (u: UserRow) => ({
  id: u.id,
  handle: u.handle,
  name: u.name,
  avatar_url: u.avatar_url,
  bio: u.bio,
  kyc_status: u.kyc_status,
  created_at: u.created_at,
});

/** Spec "Session": `current` marks the session of the token making the request. */
export const restSession = (s: SessionRow, currentSessionId: string) => ({
  id: s.id,
  device_name: s.device_name,
  platform: s.platform,
  ip_address: s.ip_address,
  last_used_at: s.last_used_at,
  created_at: s.created_at,
  current: s.id === currentSessionId,
});

/** An app the caller allowed; `scopes` as a list, as the consent page showed them. */
export const restConnectedApp = (a: ConsentedApp) => ({
  client_id: a.client_id,
  client_name: a.client_name,
  scopes: a.scope.split(' '),
  granted_at: a.granted_at,
  active_sessions: a.active_sessions,
  last_used_at: a.last_used_at,
});

/** A passkey of the account, as the REST surface and the admin API show it. */
export const restPasskey = (p: PasskeyRow) => ({
  id: p.id,
  name: p.name,
  created_at: p.created_at,
  last_used_at: p.last_used_at,
  device_type: p.device_type,
  backed_up: p.backed_up,
  transports: p.transports,
  session_id: p.session_id,
});
