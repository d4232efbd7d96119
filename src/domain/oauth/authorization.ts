// The OAuth room: OAuth 2.0 and OpenID Connect. It owns the authorization request and its checks, codes and
// consent, the single sign-on of the hosted pages, the token endpoint's grants, client authentication, claims,
// RP-Initiated Logout, and the protocol's own errors. This file is its entry.
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database, Queryable } from '../../storage/db.ts';
import { authorizationCodesRepo } from '../../storage/repositories/authorization-codes.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { consentsRepo } from '../../storage/repositories/consents.ts';
import { ssoSessionsRepo } from '../../storage/repositories/sso-sessions.ts';
import { holdAccountForSignIn } from '../../storage/rules/sign-in-hold.ts';
import { sha256 } from '../crypto.ts';
import { invalidCredentials } from '../errors.ts';
import { recordedAmr } from '../sessions/authentication.ts';
import type { AuthorizationRequest } from './authorization-request.ts';

/** How long an authorization code lives before its exchange. */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;
/** How long the authorization page remembers a sign-in. */
export const SSO_TTL_SECONDS = 7 * 24 * 3600;

export interface AuthorizationDeps {
  db: Database;
  clock: Clock;
  random: Random;
}

/** Who signed in on the authorization page, when (OIDC auth_time), and the version of the PIN they proved. */
export interface SignedIn {
  userId: string;
  authTime: Date;
  pinVersion: number;
  /** how they proved it (RFC 8176 methods) */
  amr: string[];
}

/** The authorization page's state: who is signed in (SSO), what they consented to, and the codes issued. */
export class AuthorizationService {
  constructor(private readonly d: AuthorizationDeps) {}

  /**
   * A single sign-on cookie value for this sign-in; stored hashed. Written only while the account is held
   * (storage/rules/sign-in-hold.ts): refused as a wrong PIN when its PIN was set again since the one proved,
   * the account is gone or the operator locked it, so no sign-on outlives a reset or a lock.
   */
  async startSso(who: SignedIn): Promise<{ token: string; maxAgeSeconds: number }> {
    const token = this.d.random.token(32);
    await this.d.db.transaction(async (tx) => {
      const held = await holdAccountForSignIn(tx, { userId: who.userId, pinVersion: who.pinVersion });
      if (!held.held) throw invalidCredentials();
      await ssoSessionsRepo.insert(tx, {
        token_hash: sha256(token),
        user_id: who.userId,
        auth_time: who.authTime,
        amr: who.amr,
        expires_at: addSeconds(who.authTime, SSO_TTL_SECONDS),
      });
    });
    return { token, maxAgeSeconds: SSO_TTL_SECONDS };
  }

  /** RP-initiated logout ends the single sign-on of this cookie (a replayed cookie then finds nothing). */
  async endSso(token: string | undefined): Promise<void> {
    if (token) await ssoSessionsRepo.remove(this.d.db, sha256(token));
  }

  async ssoUser(token: string | undefined): Promise<SignedIn | undefined> {
    if (!token) return undefined;
    const sso = await ssoSessionsRepo.findLive(this.d.db, sha256(token), this.d.clock.now());
    return (
      sso && {
        userId: sso.user_id,
        authTime: sso.auth_time,
        pinVersion: sso.pin_version,
        amr: recordedAmr(sso.amr),
      }
    );
  }

  /** First-party clients never ask; others ask once per client and set of scopes. */
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

  /**
   * Single use, 60 s, bound to client, redirect_uri, PKCE challenge, scope, nonce and auth_time; and
   * to the version of the PIN the sign-in proved, which its exchange checks. A device's code (never shown to
   * anyone) lives as long as its device code, and is written with the device request's approval.
   */
  async issueCode(
    who: SignedIn,
    request: AuthorizationRequest,
    { expiresAt, q = this.d.db }: { expiresAt?: Date; q?: Queryable } = {},
  ): Promise<string> {
    const code = this.d.random.token(32);
    const now = this.d.clock.now();
    await authorizationCodesRepo.insert(q, {
      code_hash: sha256(code),
      client_id: request.clientId,
      user_id: who.userId,
      redirect_uri: request.redirectUri,
      scope: request.scope,
      code_challenge: request.codeChallenge,
      nonce: request.nonce,
      auth_time: who.authTime,
      amr: who.amr,
      pin_version: who.pinVersion,
      dpop_jkt: request.dpopJkt ?? null,
      created_at: now,
      expires_at: expiresAt ?? addSeconds(now, AUTHORIZATION_CODE_TTL_SECONDS),
    });
    return code;
  }
}
