import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import { authorizationCodesRepo } from '../../storage/repositories/authorization-codes.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { consentsRepo } from '../../storage/repositories/consents.ts';
import { ssoSessionsRepo } from '../../storage/repositories/sso-sessions.ts';
import { sha256 } from '../crypto.ts';
import type { AuthorizationRequest } from './authorization-request.ts';

/** D24 */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;
/** D25: how long the authorization page remembers a sign-in. */
export const SSO_TTL_SECONDS = 7 * 24 * 3600;

export interface AuthorizationDeps {
  db: Database;
  clock: Clock;
  random: Random;
}

/** The authorization page's state: who is signed in (SSO), what they consented to, and the codes issued. */
export class AuthorizationService {
  constructor(private readonly d: AuthorizationDeps) {}

  /** D25: a single sign-on cookie value for this user; stored hashed. */
  async startSso(userId: string): Promise<{ token: string; maxAgeSeconds: number }> {
    const token = this.d.random.token(32);
    const now = this.d.clock.now();
    await ssoSessionsRepo.insert(this.d.db, {
      token_hash: sha256(token),
      user_id: userId,
      auth_time: now,
      expires_at: addSeconds(now, SSO_TTL_SECONDS),
    });
    return { token, maxAgeSeconds: SSO_TTL_SECONDS };
  }

  /** P68: RP-initiated logout ends the single sign-on of this cookie (a replayed cookie then finds nothing). */
  async endSso(token: string | undefined): Promise<void> {
    if (token) await ssoSessionsRepo.remove(this.d.db, sha256(token));
  }

  ssoUser(token: string | undefined): Promise<{ user_id: string; auth_time: Date } | undefined> {
    if (!token) return Promise.resolve(undefined);
    return ssoSessionsRepo.findLive(this.d.db, sha256(token), this.d.clock.now());
  }

  /** D19, D25: first-party clients never ask; others ask once per client and set of scopes. */
  async needsConsent(userId: string, client: ClientRow, scope: string): Promise<boolean> {
    if (client.first_party) return false;
    const granted = new Set((await consentsRepo.find(this.d.db, userId, client.client_id))?.split(' ') ?? []);
    return scope.split(' ').some((s) => !granted.has(s));
  }

  async rememberConsent(userId: string, clientId: string, scope: string): Promise<void> {
    const before = (await consentsRepo.find(this.d.db, userId, clientId))?.split(' ') ?? [];
    const merged = [...new Set([...before, ...scope.split(' ')])].join(' ');
    await consentsRepo.upsert(this.d.db, userId, clientId, merged, this.d.clock.now());
  }

  /** D24: single use, 60 s, bound to client, redirect_uri, PKCE challenge, scope, nonce and auth_time. */
  async issueCode(userId: string, authTime: Date, request: AuthorizationRequest): Promise<string> {
    const code = this.d.random.token(32);
    const now = this.d.clock.now();
    await authorizationCodesRepo.insert(this.d.db, {
      code_hash: sha256(code),
      client_id: request.clientId,
      user_id: userId,
      redirect_uri: request.redirectUri,
      scope: request.scope,
      code_challenge: request.codeChallenge,
      nonce: request.nonce,
      auth_time: authTime,
      created_at: now,
      expires_at: addSeconds(now, AUTHORIZATION_CODE_TTL_SECONDS),
    });
    return code;
  }
}
