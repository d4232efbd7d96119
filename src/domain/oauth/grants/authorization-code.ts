import type { Clock } from '../../../providers/clock.ts';
import type { CodeExchanges } from '../../../storage/batches/code-exchanges.ts';
import type { Database } from '../../../storage/db.ts';
import {
  type AuthorizationCodeRow,
  authorizationCodesRepo,
} from '../../../storage/repositories/authorization-codes.ts';
import type { ClientRow } from '../../../storage/repositories/clients.ts';
import { burnCode, type CodeExchangeRefusal } from '../../../storage/rules/code-exchange.ts';
import { sha256 } from '../../crypto.ts';
import type { AccessTokens } from '../../sessions/access-tokens.ts';
import { authenticationClaims, recordedAmr } from '../../sessions/authentication.ts';
import type { SessionService } from '../../sessions/sessions.ts';
import { signingAlgOr } from '../../sessions/signing-algorithms.ts';
import { idTokenClaims } from '../claims.ts';
import { fapiSigningAlg } from '../fapi-profile.ts';
import { OAuthError } from '../oauth-error.ts';
import { isWellFormedVerifier, verifierMatches } from '../pkce.ts';
import {
  accessResponse,
  OAUTH_ACCESS_TOKEN_TTL_SECONDS,
  type TokenRequestContext,
  type TokenResponse,
} from './access-response.ts';

/** The authorization_code grant's parameters (RFC 6749 §4.1.3, RFC 7636 §4.5). */
export interface AuthorizationCodeParams {
  code: string;
  redirectUri: string;
  codeVerifier: string;
}

export function authorizationCodeParameters(body: Record<string, unknown>): AuthorizationCodeParams {
  const { code, redirect_uri: redirectUri, code_verifier: codeVerifier } = body;
  if (typeof code !== 'string' || typeof redirectUri !== 'string')
    throw new OAuthError('invalid_request', 'code and redirect_uri are required');
  if (codeVerifier === undefined) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
  if (!isWellFormedVerifier(codeVerifier))
    throw new OAuthError('invalid_request', 'code_verifier must be 43-128 unreserved characters');
  return { code, redirectUri, codeVerifier };
}

export interface AuthorizationCodeGrantDeps {
  db: Database;
  clock: Clock;
  sessions: SessionService;
  tokens: AccessTokens;
  /** code reads and redemptions in batches */
  codeExchanges: CodeExchanges;
}

/** What the client is told when the exchange statement refuses a code that passed its own checks. */
const REFUSAL_TEXT: Record<Exclude<CodeExchangeRefusal, 'code_already_used'>, string> = {
  client_deleted: 'the client was deleted',
  consent_withdrawn: 'the user no longer allows this client this scope',
  account_gone: 'the account no longer exists',
  account_locked: 'the account is locked',
  pin_changed: 'the PIN was set again since this sign-in',
};

/** RFC 6749 §4.1.3 and RFC 7636 §4.6: why this code gives this request no tokens; undefined when it may. */
function codeRefusal(
  code: AuthorizationCodeRow,
  client: ClientRow,
  params: AuthorizationCodeParams,
  now: Date,
  context: TokenRequestContext,
): string | undefined {
  if (code.expires_at <= now) return 'the code has expired';
  if (code.client_id !== client.client_id) return 'the code was issued to another client';
  if (code.redirect_uri !== params.redirectUri) return 'redirect_uri differs from the authorization request';
  if (!verifierMatches(params.codeVerifier, code.code_challenge))
    return 'code_verifier does not match the code_challenge';
  // RFC 9449 §10: a code asked for with dpop_jkt is exchanged only with a proof of that key.
  if (code.dpop_jkt !== null && code.dpop_jkt !== context.dpopJkt)
    return 'the code is bound to another DPoP key (dpop_jkt)';
  return undefined;
}

/** A code presented again revokes what its first exchange issued. */
async function replayed(d: AuthorizationCodeGrantDeps, hash: string): Promise<never> {
  await d.db.transaction(async (tx) => {
    const used = await authorizationCodesRepo.find(tx, hash);
    if (used?.session_id) await d.sessions.revoke(tx, used.session_id, 'admin');
  });
  throw new OAuthError('invalid_grant', 'the code was already used');
}

/**
 * RFC 6749 §4.1.3 with RFC 7636 §4.6: a code from the authorization page, with its PKCE verifier, opens a
 * session of its own and answers its tokens, and an ID token when `openid` was granted.
 */
export async function authorizationCodeGrant(
  d: AuthorizationCodeGrantDeps,
  client: ClientRow,
  params: AuthorizationCodeParams,
  context: TokenRequestContext,
): Promise<TokenResponse> {
  const hash = sha256(params.code);
  // The code's fields never change once issued, so they are checked as read; only its use is the race gate.
  const row = await d.codeExchanges.find(hash);
  if (!row) throw new OAuthError('invalid_grant', 'unknown code');
  if (row.used_at) return replayed(d, hash);
  const now = d.clock.now();
  const refused = codeRefusal(row, client, params, now, context);
  if (refused) {
    if (!(await burnCode(d.db, hash, now))) return replayed(d, hash);
    throw new OAuthError('invalid_grant', refused);
  }
  return tokensOfCode(d, client, row, context, () => replayed(d, hash));
}

/**
 * The session a code opens when its exchange statement allows it, and the session's tokens; an ID token when
 * `openid` was granted. `usedAlready` answers a code that another exchange used first.
 */
export async function tokensOfCode(
  d: AuthorizationCodeGrantDeps,
  client: ClientRow,
  row: AuthorizationCodeRow,
  context: TokenRequestContext,
  usedAlready: () => Promise<never>,
): Promise<TokenResponse> {
  const { write, refreshToken } = d.sessions.prepare({
    userId: row.user_id,
    clientId: client.client_id,
    device: { name: client.client_name, platform: 'web' },
    ipAddress: null,
    scope: row.scope,
    authTime: row.auth_time,
    amr: recordedAmr(row.amr),
    // RFC 9449 §5: a public client's refresh tokens are bound to the key; a confidential one's to the client.
    dpopJkt: client.token_endpoint_auth_method === 'none' ? (context.dpopJkt ?? null) : null,
  });
  const outcome = await d.codeExchanges.redeem({ hash: row.code_hash, opening: write });
  if (!outcome.opened) {
    if (outcome.refusal === 'code_already_used') return usedAlready();
    throw new OAuthError('invalid_grant', REFUSAL_TEXT[outcome.refusal]);
  }
  const user = outcome.account;
  const auth = { time: row.auth_time, amr: recordedAmr(row.amr) };
  const sessionId = write.session.id;
  const grant = { userId: user.id, sessionId, scope: row.scope, refreshToken, auth };
  const response = accessResponse(d.tokens, client, grant, context);
  if (!row.scope.split(' ').includes('openid')) return response;
  const id_token = d.tokens.issueIdToken({
    sub: user.id,
    aud: client.client_id,
    ttlSeconds: OAUTH_ACCESS_TOKEN_TTL_SECONDS,
    alg: fapiSigningAlg(signingAlgOr(client.id_token_signed_response_alg), context.fapi === true),
    claims: {
      ...authenticationClaims(auth),
      ...(row.nonce ? { nonce: row.nonce } : {}),
      // the session its logout tokens will name (Back-Channel Logout §2.1), for a client that takes them
      ...(client.backchannel_logout_uri ? { sid: sessionId } : {}),
      ...idTokenClaims(user, row.scope),
    },
  });
  return { ...response, id_token };
}
