// The Shared Signals events Callsign transmits, and the account events each is made from.
//
// Rules it enforces:
// - Each event a stream may ask for is made only from the account events listed for it here, and says only
//   what that event says: never a PIN, a code or a token, and a phone number only in identifier-changed,
//   which goes only to a client given the phone scope (storage/repositories/ssf-events.ts).
// - A sign-in with a passkey is told as CAEP assurance-level-change (NIST AAL1 to AAL2) to the clients whose
//   session of the account was proved with one factor only;
// - A session's end is told as CAEP session-revoked; a PIN reset or change, a passkey added or removed and
//   recovery codes made or used as CAEP credential-change; an operator's lock and unlock as RISC
//   account-disabled and account-enabled; an account deleted as RISC account-purged; a number moved as RISC
//   identifier-changed, about the previous number with the new one as `new-value`; a SIM
//   swap or a recycled number found at a code step as Callsign's own phone-risk event.
import { ACR_PHISHING_RESISTANT } from '../sessions/authentication.ts';
import type { EventPayloads, EventType } from '../webhooks/events.ts';

const CAEP = 'https://schemas.openid.net/secevent/caep/event-type';
const RISC = 'https://schemas.openid.net/secevent/risc/event-type';

export const SESSION_REVOKED = `${CAEP}/session-revoked`;
export const CREDENTIAL_CHANGE = `${CAEP}/credential-change`;
export const ASSURANCE_LEVEL_CHANGE = `${CAEP}/assurance-level-change`;
export const ACCOUNT_PURGED = `${RISC}/account-purged`;
export const ACCOUNT_DISABLED = `${RISC}/account-disabled`;
export const ACCOUNT_ENABLED = `${RISC}/account-enabled`;
export const IDENTIFIER_CHANGED = `${RISC}/identifier-changed`;
/** Callsign's own event: a code step found the number's SIM swapped recently, or the number recycled. */
export const PHONE_RISK = 'urn:callsign:secevent:event-type:phone-risk';
/** SSF §8.1.4: the event a receiver's verification request is answered with. */
export const VERIFICATION = 'https://schemas.openid.net/secevent/ssf/event-type/verification';
/** SSF §8.1.5: a stream's status changed by the transmitter. */
export const STREAM_UPDATED = 'https://schemas.openid.net/secevent/ssf/event-type/stream-updated';

/** One event's type and members, with the account it is about, and its subject where it is not the account's sub. */
export interface SecurityEvent {
  type: string;
  userId: string;
  members: Record<string, unknown>;
  subject?: Record<string, string>;
}

/** What an account event's signals may know beyond its payload (outbox facts). */
export interface EventFacts {
  /** a sign-in's authentication context class */
  acr?: string;
}

type Maker<T extends EventType> = (
  data: EventPayloads[T],
  at: Date,
  facts: EventFacts,
) => SecurityEvent | undefined;

const eventTimestamp = (at: Date) => Math.floor(at.getTime() / 1000);

/** CAEP credential-change of a PIN, a passkey or the recovery codes. */
const credentialChange =
  (credential_type: string, change_type: string, initiating_entity = 'user') =>
  (userId: string, at: Date): SecurityEvent => ({
    type: CREDENTIAL_CHANGE,
    userId,
    members: { credential_type, change_type, initiating_entity, event_timestamp: eventTimestamp(at) },
  });

/** Why a session ended, as CAEP's initiating_entity says who ended it. */
const SESSION_ENDED_BY: Record<EventPayloads['session.revoked']['reason'], string> = {
  logout: 'user',
  user_revoked: 'user',
  pin_reset: 'user',
  pin_changed: 'user',
  refresh_token_reuse: 'policy',
  account_deleted: 'user',
  admin: 'admin',
};

/** The events made from each account event; an account event not listed here is told to no stream. */
export const MADE_FROM: { [T in EventType]?: Maker<T> } = {
  // A passkey's sign-in is NIST SP 800-63B's AAL2 (a multi-factor cryptographic authenticator); a PIN's or a
  // code's is AAL1. It is told only to clients holding a one-factor session of the account.
  'session.created': (d, at, facts) =>
    facts.acr === ACR_PHISHING_RESISTANT
      ? {
          type: ASSURANCE_LEVEL_CHANGE,
          userId: d.user_id,
          members: {
            namespace: 'NIST-AAL',
            current_level: 'nist-aal2',
            previous_level: 'nist-aal1',
            change_direction: 'increase',
            initiating_entity: 'user',
            event_timestamp: eventTimestamp(at),
          },
        }
      : undefined,
  'session.revoked': (d, at) => ({
    type: SESSION_REVOKED,
    userId: d.user_id,
    members: {
      initiating_entity: SESSION_ENDED_BY[d.reason],
      reason_admin: { en: d.reason },
      event_timestamp: eventTimestamp(at),
    },
  }),
  'user.pin_reset': (d, at) => credentialChange('pin', 'update')(d.user_id, at),
  'user.pin_changed': (d, at) => credentialChange('pin', 'update')(d.user_id, at),
  'passkey.created': (d, at) => credentialChange('fido2-platform', 'create')(d.user_id, at),
  'passkey.deleted': (d, at) => credentialChange('fido2-platform', 'delete')(d.user_id, at),
  'recovery_codes.generated': (d, at) => credentialChange('recovery-code', 'create')(d.user_id, at),
  'recovery_code.used': (d, at) => credentialChange('recovery-code', 'revoke')(d.user_id, at),
  'user.deleted': (d) => ({ type: ACCOUNT_PURGED, userId: d.user_id, members: {} }),
  'user.locked': (d) => ({ type: ACCOUNT_DISABLED, userId: d.user_id, members: {} }),
  'user.unlocked': (d) => ({ type: ACCOUNT_ENABLED, userId: d.user_id, members: {} }),
  'user.phone_changed': (d) => ({
    type: IDENTIFIER_CHANGED,
    userId: d.user_id,
    subject: { format: 'phone_number', phone_number: d.previous_phone },
    members: { 'new-value': d.phone },
  }),
  'user.phone_risk': (d, at) => ({
    type: PHONE_RISK,
    userId: d.user_id,
    members: {
      reason: d.reason,
      step: d.step,
      event_timestamp: eventTimestamp(at),
      ...(d.last_swap_at ? { last_swap_at: d.last_swap_at } : {}),
    },
  }),
};

/** The events a stream may ask for. */
export const EVENTS_SUPPORTED = [
  SESSION_REVOKED,
  CREDENTIAL_CHANGE,
  ASSURANCE_LEVEL_CHANGE,
  ACCOUNT_DISABLED,
  ACCOUNT_ENABLED,
  ACCOUNT_PURGED,
  IDENTIFIER_CHANGED,
  PHONE_RISK,
];

/** Each supported event's account event types. */
const SOURCES: Record<string, EventType[]> = {
  [SESSION_REVOKED]: ['session.revoked'],
  [ASSURANCE_LEVEL_CHANGE]: ['session.created'],
  [CREDENTIAL_CHANGE]: [
    'user.pin_reset',
    'user.pin_changed',
    'passkey.created',
    'passkey.deleted',
    'recovery_codes.generated',
    'recovery_code.used',
  ],
  [ACCOUNT_DISABLED]: ['user.locked'],
  [ACCOUNT_ENABLED]: ['user.unlocked'],
  [ACCOUNT_PURGED]: ['user.deleted'],
  [IDENTIFIER_CHANGED]: ['user.phone_changed'],
  [PHONE_RISK]: ['user.phone_risk'],
};

/** The account event types a stream's delivered events are made from. */
export const sourceTypesOf = (delivered: string[]): EventType[] =>
  delivered.flatMap((uri) => SOURCES[uri] ?? []);

/** The security event an account event makes, if any. */
export function securityEventOf(
  type: string,
  data: unknown,
  at: Date,
  facts: EventFacts | null,
): SecurityEvent | undefined {
  const make = MADE_FROM[type as EventType] as Maker<EventType> | undefined;
  return make?.(data as EventPayloads[EventType], at, facts ?? {});
}
