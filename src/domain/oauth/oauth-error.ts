// The OAuth module's errors: the protocol's own codes (RFC 6749 §4.1.2.1 and §5.2, RFC 6750 §3.1, RFC 7009
// §2.2.1, RFC 9470 §3, RFC 9101 §6.3, RFC 8628 §3.5), which a grant or a token check answers as the protocol defines them. The HTTP layer picks the status.
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'invalid_token'
  | 'insufficient_scope'
  // RFC 9470: the token's authentication is too old (or too weak) for this request
  | 'insufficient_user_authentication'
  // RFC 9101 §6.3: a request object that is not accepted
  | 'invalid_request_object'
  // OIDC Core §3.1.2.6: a request_uri of a form this service does not fetch
  | 'request_uri_not_supported'
  // RFC 9449 §7.1, §8: a DPoP proof refused, and a nonce asked for
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  // RFC 7591 §3.2.2: a registration's metadata refused
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  // RFC 8628 §3.5: a device's poll before the person decided, too soon, refused or too late
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token'
  | 'server_error';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** RFC 9470's parameters of a step-up challenge: the most a sign-in's age may be, in seconds */
    readonly stepUp: { max_age?: number; acr_values?: string } = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
