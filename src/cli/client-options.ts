// `callsign clients`' columns, and its create and update's branding options: how the client shows itself on
// the hosted pages.

export const BRANDING_OPTIONS = {
  'logo-uri': { type: 'string' },
  'client-uri': { type: 'string' },
  'policy-uri': { type: 'string' },
  'tos-uri': { type: 'string' },
  'brand-color': { type: 'string' },
} as const;

export const BRANDING_HELP =
  '[--logo-uri URI] [--client-uri URI] [--policy-uri URI] [--tos-uri URI]\n                 [--brand-color "#RRGGBB"] (an empty value removes one)';

/** The branding fields given, by their API names; an empty value removes the field. */
export function brandingFields(
  o: Partial<Record<keyof typeof BRANDING_OPTIONS, string>>,
): Record<string, string | null> {
  const fields: Record<string, string | null> = {};
  for (const option of Object.keys(BRANDING_OPTIONS) as (keyof typeof BRANDING_OPTIONS)[]) {
    const value = o[option];
    if (value !== undefined)
      fields[option.replace('-color', '_color').replace('-uri', '_uri')] = value === '' ? null : value;
  }
  return fields;
}

export const CLIENT_COLUMNS = [
  'client_id',
  'client_name',
  'token_endpoint_auth_method',
  'scope',
  'redirect_uris',
  'grant_types',
  'first_party',
  'backchannel_logout_uri',
  'post_logout_redirect_uris',
  'logo_uri',
  'client_uri',
  'policy_uri',
  'tos_uri',
  'brand_color',
];

// A client's back-channel logouts
export const LOGOUT_COLUMNS = [
  'id',
  'session_id',
  'status',
  'attempts',
  'last_status_code',
  'next_attempt_at',
  'last_error',
];
