import type { Clock } from '../../providers/clock.ts';
import type { Device } from '../accounts/device.ts';
import { maskIp } from '../accounts/device.ts';
import type { AccessTokens } from './access-tokens.ts';
import type { Authentication } from './authentication.ts';
import type { SessionToOpen } from './sessions.ts';

/** Spec "Token lifetimes": REST access tokens say expires_in 900. */
export const REST_ACCESS_TOKEN_TTL_SECONDS = 900;
/** What a REST access token may do (D14). */
export const REST_SCOPE = 'openid profile phone email kyc';

export interface RestTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** What a sign-in on the REST surface opens and answers: a session of the first-party client, its tokens. */
export class RestSignIn {
  constructor(private readonly d: { tokens: AccessTokens; firstPartyClientId: string; clock: Clock }) {}

  /** The session a sign-in on this device, from this address, proved by `amr`, opens now. */
  session(userId: string, device: Device, ip: string, amr: string[]): SessionToOpen & { authTime: Date } {
    const authTime = this.d.clock.now();
    const clientId = this.d.firstPartyClientId;
    return { userId, clientId, device, ipAddress: maskIp(ip), scope: REST_SCOPE, authTime, amr };
  }

  /** The tokens of a session just opened or rotated, whose sign-in `auth` says when and how was proved. */
  tokens(userId: string, sessionId: string, refreshToken: string, auth: Authentication): RestTokens {
    const access_token = this.d.tokens.issue({
      sub: userId,
      aud: this.d.firstPartyClientId,
      scope: REST_SCOPE,
      sid: sessionId,
      ttlSeconds: REST_ACCESS_TOKEN_TTL_SECONDS,
      auth,
    });
    return { access_token, refresh_token: refreshToken, expires_in: REST_ACCESS_TOKEN_TTL_SECONDS };
  }
}
