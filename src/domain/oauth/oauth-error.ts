// Error codes of RFC 6749 §4.1.2.1 and §5.2, RFC 6750 §3.1, RFC 7009 §2.2.1 and the spec's /api/v1 list.
// The HTTP layer picks the status.
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
  | 'server_error'
  // D21: the /api/v1 user-management codes
  | 'invalid_email'
  | 'email_taken'
  | 'user_not_found'
  | 'file_too_large'
  | 'invalid_file_type';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}
