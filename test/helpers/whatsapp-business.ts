import type { VendorAnswer, VendorBehaviour } from './vendor-server.ts';

// Meta's WhatsApp Business Management API beside the Cloud API on one local server: a business account's
// message templates, listed by name and created, each creation checked as Meta documents an authentication
// template (category, Meta's preset body with its security recommendation, the expiry footer of 1-90 minutes,
// one OTP button: copy_code; one_tap and zero_tap with the apps' package and 11-character signature hash;
// zero_tap with its terms accepted; a time to live of 30-900 s). Meta answers templates as it stores them, its
// types in capitals.

export interface StoredTemplate {
  name: string;
  language: string;
  category: string;
  status: string;
  components: Array<Record<string, unknown>>;
}

const error = (message: string): VendorAnswer => ({
  status: 400,
  body: {
    error: { message, type: 'OAuthException', code: 100, error_subcode: 2388042, fbtrace_id: 'AbCdEf' },
  },
});

/** What is wrong with an authentication template's creation, as Meta would refuse it; undefined when nothing. */
function problemOf(t: Record<string, unknown>): string | undefined {
  if (String(t.category).toLowerCase() !== 'authentication') return 'category';
  if (typeof t.name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(t.name) || typeof t.language !== 'string')
    return 'name or language';
  const ttl = Number(t.message_send_ttl_seconds ?? 600);
  if (!(ttl >= 30 && ttl <= 900)) return 'message_send_ttl_seconds';
  const components = Array.isArray(t.components) ? (t.components as Array<Record<string, unknown>>) : [];
  const of = (type: string) => components.find((c) => String(c.type).toLowerCase() === type);
  if (typeof of('body')?.add_security_recommendation !== 'boolean') return 'body';
  const footer = of('footer');
  if (
    footer &&
    !(Number(footer.code_expiration_minutes) >= 1 && Number(footer.code_expiration_minutes) <= 90)
  )
    return 'footer';
  const buttons = (of('buttons')?.buttons ?? []) as Array<Record<string, unknown>>;
  if (buttons.length !== 1 || String(buttons[0].type).toLowerCase() !== 'otp') return 'one OTP button';
  const button = buttons[0];
  const type = String(button.otp_type).toLowerCase();
  if (!['copy_code', 'one_tap', 'zero_tap'].includes(type)) return 'otp_type';
  if (type === 'copy_code') return undefined;
  const apps = Array.isArray(button.supported_apps)
    ? (button.supported_apps as Array<Record<string, unknown>>)
    : [];
  if (
    !apps.length ||
    !apps.every((a) => typeof a.package_name === 'string' && /^[\w+/]{11}$/.test(String(a.signature_hash)))
  )
    return 'supported_apps';
  if (type === 'zero_tap' && button.zero_tap_terms_accepted !== true) return 'zero_tap_terms_accepted';
  return undefined;
}

/** A template as Meta answers it: its types in capitals. */
const asStored = (t: Record<string, unknown>): StoredTemplate => ({
  name: String(t.name),
  language: String(t.language),
  category: 'AUTHENTICATION',
  status: 'APPROVED',
  components: (t.components as Array<Record<string, unknown>>).map((c) => ({
    ...c,
    type: String(c.type).toUpperCase(),
    ...(Array.isArray(c.buttons)
      ? {
          buttons: c.buttons.map((b: Record<string, unknown>) => ({
            ...b,
            type: 'OTP',
            otp_type: String(b.otp_type).toUpperCase(),
          })),
        }
      : {}),
  })),
});

/** The Business Management API's templates of `businessAccountId`, in front of `cloud` (the Cloud API). */
export function withTemplates(
  businessAccountId: string,
  accessToken: string,
  templates: StoredTemplate[],
  cloud: VendorBehaviour,
): VendorBehaviour {
  return (req) => {
    if (!req.path.endsWith(`/${businessAccountId}/message_templates`)) return cloud(req);
    if (req.headers.authorization !== `Bearer ${accessToken}`)
      return { status: 401, body: { error: { message: 'Invalid OAuth access token.', code: 190 } } };
    if (req.method === 'GET')
      return { status: 200, body: { data: templates.filter((t) => t.name === req.query.get('name')) } };
    const asked = (req.json ?? {}) as Record<string, unknown>;
    const problem = problemOf(asked);
    if (problem) return error(`Invalid parameter: ${problem}`);
    templates.push(asStored(asked));
    return {
      status: 200,
      body: { id: String(templates.length), status: 'APPROVED', category: 'AUTHENTICATION' },
    };
  };
}
