import { fieldError } from '../errors.ts';
import { parseOutboundUrl } from '../webhooks/webhook-addresses.ts';

/** How a client shows itself on the hosted pages: RFC 7591's names, and a brand colour. */
export interface ClientBranding {
  /** fetched once by this service (D33's rules) and served from here */
  logo_uri: string | null;
  /** the client's home page, linked from its name */
  client_uri: string | null;
  policy_uri: string | null;
  tos_uri: string | null;
  /** `#rrggbb`; the pages adjust it until it reads well (WCAG AA) */
  brand_color: string | null;
}

export const BRANDING_FIELDS = ['logo_uri', 'client_uri', 'policy_uri', 'tos_uri', 'brand_color'] as const;

/** A link shown to people: an absolute http(s) URL of at most 2048 characters, with no credentials. */
function parseLink(value: unknown, field: string): string | null {
  if (value === null || value === undefined || value === '') return null;
  let url: URL | undefined;
  try {
    url = typeof value === 'string' && value.length <= 2048 ? new URL(value) : undefined;
  } catch {}
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password)
    throw fieldError(
      'INVALID_REQUEST',
      field,
      `${field} must be an http or https URL of at most 2048 characters`,
    );
  return url.toString();
}

export function parseBranding(body: Record<string, unknown>, allowPrivateNetworks: boolean): ClientBranding {
  const color = body.brand_color;
  if (
    color !== null &&
    color !== undefined &&
    (typeof color !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(color))
  )
    throw fieldError('INVALID_REQUEST', 'brand_color', 'brand_color must be a colour as #rrggbb');
  return {
    logo_uri:
      body.logo_uri === null || body.logo_uri === undefined || body.logo_uri === ''
        ? null
        : parseOutboundUrl(body.logo_uri, 'logo_uri', allowPrivateNetworks),
    client_uri: parseLink(body.client_uri, 'client_uri'),
    policy_uri: parseLink(body.policy_uri, 'policy_uri'),
    tos_uri: parseLink(body.tos_uri, 'tos_uri'),
    brand_color: typeof color === 'string' ? color.toLowerCase() : null,
  };
}
