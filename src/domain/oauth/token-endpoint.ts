import { type Clock, unixSeconds } from '../../providers/clock.ts';
import type { CodeExchanges } from '../../storage/batches/code-exchanges.ts';
import type { Database } from '../../storage/db.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { sessionsRepo } from '../../storage/repositories/sessions.ts';
import { type UserRow, usersRepo } from '../../storage/repositories/users.ts';
import type { ClientService } from '../clients/clients.ts';
import type { AccessClaims, AccessTokens } from '../sessions/access-tokens.ts';
import { authenticationClaims, authOfSession } from '../sessions/authentication.ts';
import type { SessionService } from '../sessions/sessions.ts';
import { isSigningAlg } from '../sessions/signing-algorithms.ts';
import { type UserClaims, userinfoClaims } from './claims.ts';
import type { ClientTokens } from './client-tokens.ts';
import type { Dpop } from './dpop.ts';
import { type PresentedToken, provePossession } from './dpop-possession.ts';
import { OAuthError } from './oauth-error.ts';

export interface TokenEndpointDeps {
  db: Database;
  clock: Clock;
  clients: ClientService;
  sessions: SessionService;
  tokens: AccessTokens;
  /** Code reads and redemptions in batches */
  codeExchanges: CodeExchanges;
  /** DPoP proofs of the tokens bound to a key */
  dpop: Dpop;
  /** a client's own tokens (client_credentials) */
  clientTokens: ClientTokens;
}

/** RFC 7662 §2.2: `active`, and for an active token what the resource server may know of it. */
export type Introspection = { active: false } | ({ active: true } & Record<string, unknown>);

/** POST /oauth/revoke, /oauth/introspect and /oauth/userinfo: RFC 7009, RFC 7662, OIDC Core §5.3. */
export class TokenEndpointService {
  constructor(private readonly d: TokenEndpointDeps) {}

  /**
   * RFC 7009: a refresh token (or an access token) of this client ends its session, and with it every
   * token of the session. Unknown tokens answer success; another client's token is refused.
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
   * RFC 7662: a token of this client is active while it would be accepted now: an access token with a
   * good signature, unexpired, whose session lives; a refresh token that is its live session's current
   * one. Anything else, another client's token included (§2.2: the caller is not told of it), is
   * `{active: false}`. Looking is not using: nothing rotates, and an old refresh token is not reuse.
   */
  async introspect(client: ClientRow, token: unknown): Promise<Introspection> {
    // RFC 7662 §2.1: the endpoint serves protected resources that authenticate, never a public client.
    if (client.token_endpoint_auth_method === 'none')
      throw new OAuthError('invalid_client', 'introspection needs a client secret (a confidential client)');
    if (typeof token !== 'string' || !token) throw new OAuthError('invalid_request', 'token is required');
    // A refresh token is recognised by its form, so token_type_hint is not needed (§2.1 allows that).
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
        ...(session.dpop_jkt ? { cnf: { jkt: session.dpop_jkt } } : {}),
        ...authenticationClaims(authOfSession(session)),
      };
    }
    const claims = await this.d.tokens.verify(token, client.client_id).catch(() => undefined);
    if (!claims) return this.introspectClientToken(client, token);
    if (!(await this.liveHolder(claims))) return { active: false };
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
      ...(claims.cnf ? { token_type: 'DPoP', cnf: claims.cnf } : {}),
      ...(claims.auth_time === undefined
        ? {}
        : { auth_time: claims.auth_time, amr: claims.amr, acr: claims.acr }),
    };
  }

  /** A client's own token is active while unexpired, and shown only to that client. */
  private async introspectClientToken(client: ClientRow, token: string): Promise<Introspection> {
    const claims = await this.d.clientTokens.verify(token).catch(() => undefined);
    if (claims?.client_id !== client.client_id) return { active: false };
    return { active: true, token_type: claims.cnf ? 'DPoP' : 'Bearer', ...claims };
  }

  /**
   * OIDC Core §5.3 with RFC 6750 errors: the claims of the token's scopes, while its session lives; as a JWT
   * signed with the client's `userinfo_signed_response_alg` where it registered one (§5.3.2).
   */
  async userinfo(presented: PresentedToken | undefined): Promise<{ claims: UserClaims } | { jwt: string }> {
    const { user, scope, clientId } = await this.holderOf(presented);
    const claims = userinfoClaims(user, scope);
    const alg = (await this.d.clients.findClient(clientId))?.userinfo_signed_response_alg;
    if (!isSigningAlg(alg)) return { claims };
    return { jwt: this.d.tokens.signUserinfo({ sub: user.id, aud: clientId, claims: { ...claims }, alg }) };
  }

  /**
   * The user an OAuth access token speaks for, its scopes and when its session's user last proved the PIN;
   * invalid_token unless its session lives.
   */
  async holderOf(
    presented: PresentedToken | undefined,
  ): Promise<{ user: UserRow; scope: string; authTime: Date; clientId: string }> {
    if (!presented) throw new OAuthError('invalid_token', 'send the access token as a bearer token');
    const claims = await this.d.tokens.verify(presented.token).catch(() => {
      throw new OAuthError('invalid_token', 'the access token is invalid or expired');
    });
    await provePossession(this.d.dpop, claims, presented);
    const holder = await this.liveHolder(claims);
    if (!holder) throw new OAuthError('invalid_token', 'the session of this token has ended');
    return { user: holder.user, scope: claims.scope, authTime: holder.authTime, clientId: claims.aud };
  }

  /** The user of a verified access token, while its session (of the token's client) lives. */
  private async liveHolder(claims: AccessClaims): Promise<{ user: UserRow; authTime: Date } | undefined> {
    const session = await sessionsRepo.findActive(this.d.db, claims.sid);
    if (session?.client_id !== claims.aud) return undefined;
    const user = await usersRepo.findLiveById(this.d.db, claims.sub);
    return user && { user, authTime: session.auth_time };
  }
}
