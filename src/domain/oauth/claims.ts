import type { UserRow } from '../../storage/repositories/users.ts';

/** What /oauth/userinfo answers: `sub`, and the claims of the granted scopes that have a value. */
export interface UserClaims {
  sub: string;
  name?: string;
  picture?: string;
  updated_at?: number;
  phone?: string;
  phone_verified?: boolean;
  phone_number?: string;
  phone_number_verified?: boolean;
  email?: string;
  email_verified?: boolean;
  kyc_status?: string;
  kyc_country?: string;
}

/** A value, or nothing: a claim without a value is left out, as OpenID Connect says. */
const present = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** Spec "Userinfo claims by scope". */
export function userinfoClaims(u: UserRow, scope: string): UserClaims {
  const scopes = new Set(scope.split(' '));
  const claims: UserClaims = { sub: u.id };
  if (scopes.has('profile')) {
    claims.name = present(u.name);
    claims.picture = present(u.avatar_url);
    claims.updated_at = Math.floor(u.updated_at.getTime() / 1000);
  }
  // The spec's pair, and OIDC Core §5.1's that standard relying-party libraries read: the same values.
  if (scopes.has('phone')) {
    claims.phone = claims.phone_number = u.phone;
    claims.phone_verified = claims.phone_number_verified = u.phone_verified;
  }
  if (scopes.has('email') && u.email) Object.assign(claims, { email: u.email, email_verified: false });
  // One KYC state, uppercase on the OAuth surface.
  if (scopes.has('kyc')) {
    claims.kyc_status = u.kyc_status.toUpperCase();
    claims.kyc_country = present(u.kyc_country);
  }
  for (const name of Object.keys(claims) as Array<keyof UserClaims>)
    if (claims[name] === undefined) delete claims[name];
  return claims;
}

/**
 * Spec "ID token claims": beyond the registered ones, phone, phone_verified, name, picture, kyc_status by
 * scope; and OIDC Core's phone_number and phone_number_verified beside the spec's phone pair.
 */
const ID_TOKEN_CLAIMS = [
  'phone',
  'phone_verified',
  'phone_number',
  'phone_number_verified',
  'name',
  'picture',
  'kyc_status',
];

export function idTokenClaims(u: UserRow, scope: string): Record<string, unknown> {
  const all: Record<string, unknown> = { ...userinfoClaims(u, scope) };
  return Object.fromEntries(Object.entries(all).filter(([k]) => ID_TOKEN_CLAIMS.includes(k)));
}
