import type { User } from './api-types.js';

/** A signed-in user and the tokens that act for them. */
export interface Session {
  user: User;
  /** the bearer token for Callsign's API and the app's own backend; it lives minutes */
  accessToken: string;
  /** the token that gets the next access token; each use replaces it */
  refreshToken: string;
  /** when the access token expires, in milliseconds since 1970 (as Date.now()) */
  expiresAt: number;
}

/** Why a session ended. */
export type SignOutReason =
  /** the app called auth.signOut() or users.delete() */
  | 'signed_out'
  /** the refresh token was refused: expired, or its session ended */
  | 'refresh_failed'
  /** the session was ended elsewhere (another device, the account page, the operator) while in use */
  | 'session_revoked';

export type SessionEvent =
  | { type: 'SIGNED_IN'; session: Session }
  | { type: 'TOKEN_REFRESHED'; session: Session }
  | { type: 'USER_UPDATED'; session: Session }
  | { type: 'SIGNED_OUT'; session: null; reason: SignOutReason };

export type SessionListener = (event: SessionEvent) => void;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A session read back from storage, or undefined when what is stored is not one (another version's, damaged). */
export function parseSession(text: string | null | undefined): Session | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (
      isObject(value) &&
      isObject(value.user) &&
      typeof value.accessToken === 'string' &&
      typeof value.refreshToken === 'string' &&
      typeof value.expiresAt === 'number'
    )
      return value as unknown as Session;
  } catch {}
  return undefined;
}
