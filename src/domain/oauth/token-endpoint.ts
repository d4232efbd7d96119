import { type Clock, unixSeconds } from '../../providers/clock.ts';
import type { CodeExchanges } from '../../storage/code-exchanges.ts';
import type { Database } from '../../storage/db.ts';
import {
  type AuthorizationCodeRow,
  authorizationCodesRepo,
} from '../../storage/repositories/authorization-codes.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { sessionsRepo } from '../../storage/repositories/sessions.ts';
import { type UserRow, usersRepo } from '../../storage/repositories/users.ts';
import type { AccessClaims, AccessTokens } from '../access-tokens.ts';
import type { ClientService } from '../clients.ts';
import { sha256 } from '../crypto.ts';
import { DomainError } from '../errors.ts';
import type { SessionService } from '../sessions.ts';
import { idTokenClaims, userinfoClaims } from './claims.ts';
import { OAuthError } from './oauth-error.ts';
import { isWellFormedVerifier, verifierMatches } from './pkce.ts';

/** Spec "Token lifetimes": OAuth access and ID tokens live 1 hour. */
export const OAUTH_ACCESS_TOKEN_TTL_SECONDS = 3600;

export interface TokenEndpointDeps {
  db: Database;
  clock: Clock;
  clients: ClientService;
  sessions: SessionService;
  tokens: AccessTokens;
  /** P85: code reads and redemptions in batches */
  codeExchanges: CodeExchanges;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  id_token?: string;
}

const invalidGrant = (why: string) => new OAuthError('invalid_grant', why);

/** RFC 7662 §2.2: `active`, and for an active token what the resource server may know of it. */
export type Introspection = { active: false } | ({ active: true } & Record<string, unknown>);

/** RFC 6749 §4.1.3 and RFC 7636 §4.6: why this code gives this request no tokens; undefined when it may. */
function codeRefusal(
  code: AuthorizationCodeRow,
  client: ClientRow,
  redirectUri: string,
  verifier: string,
  now: Date,
): string | undefined {
  if (code.expires_at <= now) return 'the code has expired';
  if (code.client_id !== client.client_id) return 'the code was issued to another client';
  if (code.redirect_uri !== redirectUri) return 'redirect_uri differs from the authorization request';
  if (!verifierMatches(verifier, code.code_challenge))
    return 'code_verifier does not match the code_challenge';
  return undefined;
}

/** POST /oauth/token, /oauth/revoke and /oauth/userinfo: RFC 6749, RFC 7636, RFC 7009, OIDC Core §5.3. */
export class TokenEndpointService {
  constructor(private readonly d: TokenEndpointDeps) {}

  /** RFC 6749 §4.1.3 with RFC 7636 §4.6; D24 replay handling; D15: each exchange opens a session. */
  async exchangeCode(client: ClientRow, p: Record<string, unknown>): Promise<TokenResponse> {
    const { code, redirect_uri: redirectUri, code_verifier: verifier } = p;
    if (typeof code !== 'string' || typeof redirectUri !== 'string')
      throw new OAuthError('invalid_request', 'code and redirect_uri are required');
    if (verifier === undefined) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    if (!isWellFormedVerifier(verifier))
      throw new OAuthError('invalid_request', 'code_verifier must be 43-128 unreserved characters');
    const hash = sha256(code);

    // The code's fields never change once issued, so they are checked as read; only its use is the race gate.
    const row = await this.d.codeExchanges.find(hash);
    if (!row) throw invalidGrant('unknown code');
    if (row.used_at) return this.replayed(hash);
    const now = this.d.clock.now();
    const refused = codeRefusal(row, client, redirectUri, verifier, now);
    if (refused) {
      // Single use (D24) whatever the outcome: a code that failed a check cannot be tried again.
      if (!(await authorizationCodesRepo.consume(this.d.db, hash, now))) return this.replayed(hash);
      throw invalidGrant(refused);
    }
    const { write, refreshToken } = this.d.sessions.prepare({
      userId: row.user_id,
      clientId: client.client_id,
      device: { name: client.client_name, platform: 'web' },
      ipAddress: null,
      scope: row.scope,
      authTime: row.auth_time,
    });
    const redeemed = await this.d.codeExchanges.redeem({ hash, opening: write });
    if (!redeemed) return this.replayed(hash);
    // P23, P55: the client may have been read from memory; its deletion ends its sessions, so one opened
    // after it would outlive it. P51: a code issued before the operator's lock opens nothing; P88: nor one
    // whose sign-in proved a PIN that a reset has replaced since; P102: nor one whose consent was withdrawn.
    if (!redeemed.opened)
      throw invalidGrant(
        !redeemed.clientLive
          ? 'the client was deleted'
          : !redeemed.consented
            ? 'the user no longer allows this client this scope'
            : !redeemed.account
              ? 'the account no longer exists'
              : redeemed.account.admin_locked_at
                ? 'the account is locked'
                : 'the PIN was set again since this sign-in',
      );
    const user = redeemed.account;

    const response = this.accessResponse(client, user.id, write.session.id, row.scope, refreshToken);
    if (!row.scope.split(' ').includes('openid')) return response;
    const id_token = this.d.tokens.issueIdToken({
      sub: user.id,
      aud: client.client_id,
      ttlSeconds: OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      claims: {
        auth_time: unixSeconds(row.auth_time),
        ...(row.nonce ? { nonce: row.nonce } : {}),
        // P109: the session its logout tokens will name (Back-Channel Logout §2.1), for a client that takes them
        ...(client.backchannel_logout_uri ? { sid: write.session.id } : {}),
        ...idTokenClaims(user, row.scope),
      },
    });
    return { ...response, id_token };
  }

  /** D24: a code presented again revokes what its first exchange issued. */
  private async replayed(hash: string): Promise<never> {
    await this.d.db.transaction(async (tx) => {
      const used = await authorizationCodesRepo.find(tx, hash);
      if (used?.session_id) await this.d.sessions.revoke(tx, used.session_id, 'admin');
    });
    throw invalidGrant('the code was already used');
  }

  /** RFC 6749 §6 with D16's rotation and reuse rules, bound to the client. */
  async refresh(client: ClientRow, p: Record<string, unknown>): Promise<TokenResponse> {
    if (!client.grant_types.includes('refresh_token'))
      throw new OAuthError('unauthorized_client', 'this client may not use refresh tokens');
    if (typeof p.refresh_token !== 'string')
      throw new OAuthError('invalid_request', 'refresh_token is required');
    let rotated: Awaited<ReturnType<SessionService['rotate']>>;
    try {
      rotated = await this.d.sessions.rotate(p.refresh_token, client.client_id);
    } catch (err) {
      if (err instanceof DomainError) throw invalidGrant('the refresh token is invalid, expired or revoked');
      throw err;
    }
    return this.accessResponse(
      client,
      rotated.userId,
      rotated.sessionId,
      rotated.scope,
      rotated.refreshToken,
    );
  }

  private accessResponse(
    client: ClientRow,
    userId: string,
    sessionId: string,
    scope: string,
    refreshToken: string,
  ): TokenResponse {
    const access_token = this.d.tokens.issue({
      sub: userId,
      aud: client.client_id,
      scope,
      sid: sessionId,
      ttlSeconds: OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    });
    const response: TokenResponse = {
      access_token,
      token_type: 'Bearer',
      expires_in: OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      scope,
    };
    if (client.grant_types.includes('refresh_token')) response.refresh_token = refreshToken;
    return response;
  }

  /**
   * RFC 7009: a refresh token (or an access token) of this client ends its session, and with it every
   * token of the session. Unknown tokens answer success (D25); another client's token is refused.
   */
  async revoke(client: ClientRow, token: unknown): Promise<void> {
    if (typeof token !== 'string' || !token) throw new OAuthError('invalid_request', 'token is required');
    let session: { id: string; client_id: string } | undefined = await this.d.sessions.ofRefreshToken(
      this.d.db,
      token,
    );
    if (!session) {
      const claims = await this.d.tokens.verify(token).catch(() => undefined);
      if (claims) session = { id: claims.sid, client_id: claims.aud };
    }
    if (!session) return;
    if (session.client_id !== client.client_id)
      throw new OAuthError('unauthorized_client', 'the token was issued to another client');
    await this.d.db.transaction((tx) => this.d.sessions.revoke(tx, session.id, 'logout'));
  }

  /**
   * RFC 7662 (P72): a token of this client is active while it would be accepted now: an access token with a
   * good signature, unexpired, whose session lives (D17); a refresh token that is its live session's current
   * one. Anything else, another client's token included (§2.2: the caller is not told of it), is
   * `{active: false}`. Looking is not using: nothing rotates, and an old refresh token is not reuse.
   */
  async introspect(client: ClientRow, token: unknown): Promise<Introspection> {
    // RFC 7662 §2.1: the endpoint serves protected resources that authenticate, never a public client.
    if (client.token_endpoint_auth_method === 'none')
      throw new OAuthError('invalid_client', 'introspection needs a client secret (a confidential client)');
    if (typeof token !== 'string' || !token) throw new OAuthError('invalid_request', 'token is required');
    // A refresh token is recognised by its form (P59), so token_type_hint is not needed (§2.1 allows that).
    const session = await this.d.sessions.ofLiveRefreshToken(token);
    if (session) {
      if (session.client_id !== client.client_id) return { active: false };
      return {
        active: true,
        client_id: session.client_id,
        sub: session.user_id,
        scope: session.scope,
        sid: session.id,
        iat: unixSeconds(session.refresh_issued_at),
        exp: unixSeconds(session.refresh_expires_at),
      };
    }
    const claims = await this.d.tokens.verify(token, client.client_id).catch(() => undefined);
    if (!claims || !(await this.liveHolder(claims))) return { active: false };
    return {
      active: true,
      token_type: 'Bearer',
      client_id: claims.aud,
      sub: claims.sub,
      scope: claims.scope,
      sid: claims.sid,
      jti: claims.jti,
      iss: claims.iss,
      aud: claims.aud,
      iat: claims.iat,
      exp: claims.exp,
    };
  }

  /** OIDC Core §5.3 with RFC 6750 errors: the claims of the token's scopes, while its session lives (D17). */
  async userinfo(accessToken: string | undefined): Promise<Record<string, unknown>> {
    const { user, scope } = await this.holderOf(accessToken);
    return userinfoClaims(user, scope);
  }

  /**
   * The user an OAuth access token speaks for, its scopes and when its session's user last proved the PIN;
   * invalid_token unless its session lives (D17).
   */
  async holderOf(accessToken: string | undefined): Promise<{ user: UserRow; scope: string; authTime: Date }> {
    if (!accessToken) throw new OAuthError('invalid_token', 'send the access token as a bearer token');
    const claims = await this.d.tokens.verify(accessToken).catch(() => {
      throw new OAuthError('invalid_token', 'the access token is invalid or expired');
    });
    const holder = await this.liveHolder(claims);
    if (!holder) throw new OAuthError('invalid_token', 'the session of this token has ended');
    return { user: holder.user, scope: claims.scope, authTime: holder.authTime };
  }

  /** D17: the user of a verified access token, while its session (of the token's client) lives. */
  private async liveHolder(claims: AccessClaims): Promise<{ user: UserRow; authTime: Date } | undefined> {
    const session = await sessionsRepo.findActive(this.d.db, claims.sid);
    if (session?.client_id !== claims.aud) return undefined;
    const user = await usersRepo.findLiveById(this.d.db, claims.sub);
    return user && { user, authTime: session.auth_time };
  }
}
