import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { pushedRequestsRepo } from '../../storage/repositories/pushed-requests.ts';
import { finishPushedRequest, openPushedRequest } from '../../storage/rules/pushed-requests.ts';
import { sha256 } from '../crypto.ts';
import {
  type AuthorizationRequestDeps,
  type Checked,
  checkAuthorizationRequest,
} from './authorization-request.ts';
import { fapiApplies } from './client-authentication.ts';
import type { ClientKeySets } from './client-key-sets.ts';
import { clientSigningAlgs } from './fapi-profile.ts';
import { OAuthError, type OAuthErrorCode } from './oauth-error.ts';
import { openRequestObject } from './request-object.ts';
import { REQUEST_URI_PREFIX, requestParameters } from './request-parameters.ts';

/** RFC 9126 §2.2: how long a pushed request's request_uri may be used. */
export const PUSHED_REQUEST_TTL_SECONDS = 60;
/** The fields of a pushed request's body that authenticate its client, not part of the request. */
const CLIENT_AUTH_FIELDS = ['client_secret', 'client_assertion', 'client_assertion_type'];

export interface AuthorizationRequestsDeps {
  db: Database;
  clock: Clock;
  random: Random;
  keySets: ClientKeySets;
  findClient(clientId: string): Promise<ClientRow | undefined>;
  idTokenHint(token: string): Promise<{ aud: string; sub: string } | undefined>;
  /** what a request object's aud may say: the issuer and the authorization endpoint's URL */
  audiences: string[];
  /** REQUIRE_PAR: every client's requests come pushed */
  requirePar: boolean;
  /** FAPI_PROFILE=2.0: every client is under the FAPI 2.0 Security Profile */
  fapiProfile: boolean;
}

/**
 * Authorization requests as they arrive: sent as such, signed into a request object (RFC 9101), or pushed
 * first (RFC 9126) and then named by the request_uri they were given; each checked the same way.
 */
export class AuthorizationRequests {
  constructor(private readonly d: AuthorizationRequestsDeps) {}

  #deps: AuthorizationRequestDeps = {
    findClient: (id) => this.d.findClient(id),
    idTokenHint: (token) => this.d.idTokenHint(token),
    requestObject: (client, jwt) =>
      openRequestObject(
        { ...this.d, algorithms: clientSigningAlgs(fapiApplies(client, this.d)) },
        client,
        jwt,
      ),
    pushedRequest: async (client, requestUri) => {
      const referenceHash = sha256(requestUri);
      const parameters = await openPushedRequest(
        this.d.db,
        referenceHash,
        client.client_id,
        this.d.clock.now(),
      );
      return parameters && { parameters, referenceHash };
    },
    mustPush: (client) =>
      this.d.requirePar || client.require_pushed_authorization_requests || fapiApplies(client, this.d),
  };

  /** GET or POST /authorize: the request checked, on the parameters that count. */
  check(params: Record<string, unknown>): Promise<Checked> {
    return checkAuthorizationRequest(params, this.#deps);
  }

  /**
   * RFC 9126 §2: an authenticated client's request, checked as /authorize would check it (errors answered
   * here, as JSON), then kept for PUSHED_REQUEST_TTL_SECONDS under a request_uri that only it may use.
   */
  async push(
    client: ClientRow,
    body: Record<string, unknown>,
    dpopJkt?: string,
  ): Promise<{ request_uri: string; expires_in: number }> {
    if (body.client_id !== undefined && body.client_id !== client.client_id)
      throw new OAuthError('invalid_request', 'client_id differs from the authenticated client');
    // RFC 9449 §10.1: a proof sent with the push binds the code to its key, as dpop_jkt would; both must agree.
    if (dpopJkt && body.dpop_jkt !== undefined && body.dpop_jkt !== dpopJkt)
      throw new OAuthError('invalid_dpop_proof', 'dpop_jkt is not the key of the DPoP proof');
    const outer = Object.fromEntries(
      Object.entries(body).filter(([name]) => !CLIENT_AUTH_FIELDS.includes(name)),
    );
    const pushing = { ...this.#deps, pushing: true };
    const source = await requestParameters({ ...outer, client_id: client.client_id }, client, pushing);
    if ('error' in source) throw new OAuthError(source.error as OAuthErrorCode, source.description);
    if ('page' in source) throw new OAuthError('invalid_request', 'the request cannot be pushed');
    const parameters = Object.fromEntries(
      Object.entries(source.params).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
    if (dpopJkt) parameters.dpop_jkt = dpopJkt;
    const checked = await checkAuthorizationRequest({ ...parameters, client_id: client.client_id }, pushing);
    if (!checked.ok && 'page' in checked)
      throw new OAuthError('invalid_request', 'redirect_uri is not one this client registered');
    if (!checked.ok)
      throw new OAuthError(checked.redirect.error as OAuthErrorCode, checked.redirect.description);
    const requestUri = `${REQUEST_URI_PREFIX}${this.d.random.token(32)}`;
    const now = this.d.clock.now();
    await pushedRequestsRepo.insert(this.d.db, {
      reference_hash: sha256(requestUri),
      client_id: client.client_id,
      parameters: { ...parameters, client_id: client.client_id },
      created_at: now,
      expires_at: addSeconds(now, PUSHED_REQUEST_TTL_SECONDS),
    });
    return { request_uri: requestUri, expires_in: PUSHED_REQUEST_TTL_SECONDS };
  }

  /** Ends a pushed request's authorization (its code issued, or its refusal sent); false if it had ended. */
  finishPushed(referenceHash: string): Promise<boolean> {
    return finishPushedRequest(this.d.db, referenceHash, this.d.clock.now());
  }
}
