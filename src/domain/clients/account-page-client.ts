import type { ClientRow } from '../../storage/repositories/clients.ts';

// The account page's own client: the hosted page where people manage their account signs them in through the
// same sign-in pages as any application, as this built-in first-party client. It is never stored and never
// gets a code or a token: once signed in, the browser's single sign-on is the account page's proof of who it is.

/** Its id: no registered client has it (theirs are 22 characters of base64url). */
export const ACCOUNT_PAGE_CLIENT_ID = 'callsign-account';

/** Where the account page is served, under the sign-in pages' path so their single sign-on comes with each visit. */
export const ACCOUNT_PAGE_PATH = '/authorize/account';

export const isAccountPage = (clientId: string) => clientId === ACCOUNT_PAGE_CLIENT_ID;

/** The built-in client as the sign-in pages show it: the instance's name, its own redirect, no consent. */
export function accountPageClient(name: string, authUrl: string, createdAt: Date): ClientRow {
  return {
    client_id: ACCOUNT_PAGE_CLIENT_ID,
    client_name: name,
    client_secret_hash: null,
    previous_secret_hash: null,
    previous_secret_expires_at: null,
    redirect_uris: [new URL(ACCOUNT_PAGE_PATH, authUrl).toString()],
    grant_types: [],
    scope: 'openid',
    token_endpoint_auth_method: 'none',
    first_party: true,
    backchannel_logout_uri: null,
    post_logout_redirect_uris: [],
    logo_uri: null,
    client_uri: null,
    policy_uri: null,
    tos_uri: null,
    brand_color: null,
    logo_image: null,
    id_token_signed_response_alg: 'RS256',
    userinfo_signed_response_alg: null,
    jwks: null,
    jwks_uri: null,
    require_pushed_authorization_requests: false,
    dpop_bound_access_tokens: false,
    fapi_2_0: false,
    registration_access_token_hash: null,
    created_at: createdAt,
    deleted_at: null,
  };
}

/** The account page's address, with the way back to the app that sent the person there when there is one. */
export const accountPageLocation = (returnTo?: string) =>
  returnTo ? `${ACCOUNT_PAGE_PATH}?return_to=${encodeURIComponent(returnTo)}` : ACCOUNT_PAGE_PATH;
