import type { UserRow } from '../../storage/repositories/users.ts';

/** Spec "Userinfo claims by scope"; claims without a value are left out, as OpenID Connect says (D2). */
export function userinfoClaims(u: UserRow, scope: string): Record<string, unknown> {
  const scopes = new Set(scope.split(' '));
  const claims: Record<string, unknown> = { sub: u.id };
  if (scopes.has('profile')) {
    Object.assign(claims, {
      name: u.name,
      picture: u.avatar_url,
      updated_at: Math.floor(u.updated_at.getTime() / 1000),
    });
  }
  // The spec's pair, and OIDC Core §5.1's that standard relying-party libraries read: the same values.
  if (scopes.has('phone'))
    Object.assign(claims, {
      phone: u.phone,
      phone_verified: u.phone_verified,
      phone_number: u.phone,
      phone_number_verified: u.phone_verified,
    });
  if (scopes.has('email') && u.email) Object.assign(claims, { email: u.email, email_verified: false });
  // D3: one KYC state, uppercase on the OAuth surface.
  if (scopes.has('kyc'))
    Object.assign(claims, { kyc_status: u.kyc_status.toUpperCase(), kyc_country: u.kyc_country });
  return Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== null && v !== undefined));
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
  const all = userinfoClaims(u, scope);
  return Object.fromEntries(Object.entries(all).filter(([k]) => ID_TOKEN_CLAIMS.includes(k)));
}
