import type { ClientRow } from '../../storage/repositories/clients.ts';
import { RequestObjectRefused } from './request-object.ts';

/** RFC 9126 §2.2: the form of the request_uri a pushed request is given. */
export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

export interface RequestParametersDeps {
  /** the parameters a client's request object carries; throws RequestObjectRefused */
  requestObject(client: ClientRow, jwt: string): Promise<Record<string, string>>;
  /** the parameters of this client's live pushed request, and the hash that finishes it */
  pushedRequest(
    client: ClientRow,
    requestUri: string,
  ): Promise<{ parameters: Record<string, unknown>; referenceHash: string } | undefined>;
  /** whether this client's requests must come pushed (its registration, or REQUIRE_PAR) */
  mustPush(client: ClientRow): boolean;
  /** the request is being pushed (POST /oauth/par): it cannot itself name a request_uri */
  pushing?: boolean;
}

/** Where an authorization request's parameters come from, or why they cannot be had. */
export type RequestParameters =
  | { params: Record<string, unknown>; pushedRequest?: string }
  /** a pushed request that is unknown, expired, finished, or another client's: an error page */
  | { page: 'expired_request' }
  /** an error for the client, sent to its redirect URI where the outer one is registered */
  | { error: string; description: string };

const text = (q: Record<string, unknown>, name: string) =>
  typeof q[name] === 'string' ? q[name] : undefined;

/**
 * The parameters that count (RFC 9126 §4, RFC 9101 §5): a pushed request's, named by the request_uri it was
 * given; else a request object's; else the request's own. A request_uri of any other form (a URL to fetch)
 * is not supported. A client that must push gets nothing from a request not pushed.
 */
export async function requestParameters(
  q: Record<string, unknown>,
  client: ClientRow,
  d: RequestParametersDeps,
): Promise<RequestParameters> {
  const requestUri = text(q, 'request_uri');
  if (q.request_uri !== undefined) {
    if (d.pushing)
      return { error: 'invalid_request', description: 'a pushed request cannot name a request_uri' };
    if (!requestUri?.startsWith(REQUEST_URI_PREFIX))
      return {
        error: 'request_uri_not_supported',
        description: 'request_uri is supported only as given by the pushed authorization request endpoint',
      };
    const pushed = await d.pushedRequest(client, requestUri);
    if (!pushed) return { page: 'expired_request' };
    return { params: pushed.parameters, pushedRequest: pushed.referenceHash };
  }
  if (!d.pushing && d.mustPush(client))
    return {
      error: 'invalid_request',
      description: 'this client must push its authorization requests first (POST /oauth/par)',
    };
  if (q.request === undefined) return { params: q };
  const jwt = text(q, 'request');
  if (!jwt) return { error: 'invalid_request_object', description: 'request must be a signed JWT' };
  try {
    return { params: await d.requestObject(client, jwt) };
  } catch (err) {
    if (err instanceof RequestObjectRefused)
      return { error: 'invalid_request_object', description: err.message };
    throw err;
  }
}
