import type { Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Queryable } from '../../storage/db.ts';
import type { VerificationRow } from '../../storage/repositories/kyc.ts';
import { type OutboxEvent, outboxRepo } from '../../storage/repositories/outbox.ts';
import type { SessionRow } from '../../storage/repositories/sessions.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import type { RejectionReason } from '../kyc/kyc-rules.ts';
import { signInFacts } from '../sessions/authentication.ts';

// The spec's "Event types and data": one entry per event type, so adding an event is one line here.
export interface EventPayloads {
  'user.created': {
    user: { id: string; phone: string; handle: string; name: string | null; created_at: string };
    /** true for an account an import brought (sent only where the import asked for events) */
    imported?: true;
  };
  'user.updated': {
    user: { id: string; handle: string; name: string | null; avatar_url: string | null; updated_at: string };
    changed_fields: string[];
  };
  'user.deleted': { user_id: string; deleted_at: string };
  'kyc.submitted': { user_id: string; verification_id: string; submitted_at: string };
  'kyc.verified': {
    user_id: string;
    verification_id: string;
    verified_at: string;
    country: string;
    documents: string[];
  };
  'kyc.rejected': {
    user_id: string;
    verification_id: string;
    rejected_at: string;
    reason: RejectionReason;
    message: string;
  };
  'session.created': {
    user_id: string;
    session_id: string;
    device_name: string | null;
    platform: string;
    ip_address: string | null;
  };
  'session.revoked': { user_id: string; session_id: string; reason: SessionRevokeReason };
  'passkey.created': { user_id: string; passkey_id: string; created_at: string };
  'passkey.deleted': { user_id: string; passkey_id: string; deleted_at: string };
  'recovery_codes.generated': { user_id: string; created_at: string };
  'recovery_code.used': { user_id: string; used_at: string; remaining: number };
  'user.pin_reset': {
    user_id: string;
    reset_at: string;
    by: 'code' | 'recovery_code';
    removed: { passkeys: number; recovery_codes: boolean };
  };
  'user.pin_changed': { user_id: string; changed_at: string; sessions_ended: number };
  'user.locked': { user_id: string; locked_at: string };
  'user.unlocked': { user_id: string; unlocked_at: string };
  'user.phone_changed': { user_id: string; previous_phone: string; phone: string; changed_at: string };
  'user.phone_risk': {
    user_id: string;
    reason: 'sim_swap' | 'number_recycled';
    step: 'pin_reset' | 'signin';
    detected_at: string;
    last_swap_at?: string;
  };
}
export type EventType = keyof EventPayloads;

/** When each event is emitted (spec table); `satisfies` makes a new payload above need its line here. */
export const EVENT_CATALOGUE = {
  'user.created': 'a user signs up',
  'user.updated': 'a profile is updated',
  'user.deleted': 'a user deletes the account',
  'kyc.submitted': 'a user submits an identity verification',
  'kyc.verified': 'an identity verification is approved',
  'kyc.rejected': 'an identity verification is rejected',
  'session.created': 'a user signs in',
  'session.revoked': 'a session is revoked (logout or security)',
  'passkey.created': 'a user adds a passkey',
  'passkey.deleted': 'a passkey is removed',
  'recovery_codes.generated': 'a user makes a new set of recovery codes',
  'recovery_code.used': 'a recovery code resets a PIN, or signs in where PINs are off',
  'user.pin_reset':
    'a PIN is reset, by a code to the phone or a recovery code; says what else the reset removed',
  'user.pin_changed': 'a person changes their PIN, giving the one before; the other sessions end',
  'user.locked': 'an operator locks an account: its sessions end and it cannot sign in until unlocked',
  'user.unlocked': 'an operator unlocks an account',
  'user.phone_changed':
    'a person moves the account to another phone number (a code to the new one, and the PIN); says both',
  'user.phone_risk': 'a code step is refused: the number’s SIM changed recently, or the number was recycled',
} as const satisfies Record<EventType, string>;

export const EVENT_TYPES = Object.keys(EVENT_CATALOGUE) as EventType[];

/** Why a session ended, as session.revoked says. */
export type SessionRevokeReason =
  | 'logout'
  | 'user_revoked'
  | 'pin_reset'
  | 'pin_changed'
  | 'refresh_token_reuse'
  | 'account_deleted'
  | 'admin';

export const payloads = {
  userCreated: (u: UserRow): EventPayloads['user.created'] => ({
    user: {
      id: u.id,
      phone: u.phone,
      handle: u.handle,
      name: u.name,
      created_at: u.created_at.toISOString(),
    },
  }),
  userUpdated: (u: UserRow, changedFields: string[]): EventPayloads['user.updated'] => ({
    user: {
      id: u.id,
      handle: u.handle,
      name: u.name,
      avatar_url: u.avatar_url,
      updated_at: u.updated_at.toISOString(),
    },
    changed_fields: changedFields,
  }),
  userDeleted: (u: UserRow): EventPayloads['user.deleted'] => ({
    user_id: u.id,
    deleted_at: (u.deleted_at as Date).toISOString(),
  }),
  kycSubmitted: (v: VerificationRow): EventPayloads['kyc.submitted'] => ({
    user_id: v.user_id,
    verification_id: v.id,
    submitted_at: (v.submitted_at as Date).toISOString(),
  }),
  kycVerified: (v: VerificationRow): EventPayloads['kyc.verified'] => ({
    user_id: v.user_id,
    verification_id: v.id,
    verified_at: (v.decided_at as Date).toISOString(),
    country: v.country as string,
    documents: v.documents ?? [],
  }),
  kycRejected: (v: VerificationRow): EventPayloads['kyc.rejected'] => ({
    user_id: v.user_id,
    verification_id: v.id,
    rejected_at: (v.decided_at as Date).toISOString(),
    reason: v.reason as RejectionReason,
    message: v.message ?? '',
  }),
  sessionCreated: (
    s: Pick<SessionRow, 'id' | 'user_id' | 'device_name' | 'platform' | 'ip_address'>,
  ): EventPayloads['session.created'] => ({
    user_id: s.user_id,
    session_id: s.id,
    device_name: s.device_name,
    platform: s.platform,
    ip_address: s.ip_address,
  }),
  sessionRevoked: (s: SessionRow, reason: SessionRevokeReason): EventPayloads['session.revoked'] => ({
    user_id: s.user_id,
    session_id: s.id,
    reason,
  }),
};

/** session.created's payload, and what the security signals know beside it: the class its sign-in reached. */
export const sessionCreated = (
  s: Parameters<typeof payloads.sessionCreated>[0] & { amr?: string[] | null },
): [EventPayloads['session.created'], Record<string, unknown>] => [
  payloads.sessionCreated(s),
  signInFacts(s),
];

/** Events go into the outbox inside the caller's transaction, so a change and its event commit together. */
export class Events {
  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  /**
   * An event with its id and time, for a statement that writes it with the change it reports; with the facts
   * its security signals need beyond the payload.
   */
  event<T extends EventType>(type: T, data: EventPayloads[T], facts?: Record<string, unknown>): OutboxEvent {
    return {
      id: this.random.timeOrderedId(),
      type,
      data,
      createdAt: this.clock.now(),
      ...(facts ? { facts } : {}),
    };
  }

  emit<T extends EventType>(tx: Queryable, type: T, data: EventPayloads[T]) {
    return outboxRepo.insert(tx, this.event(type, data));
  }
}
