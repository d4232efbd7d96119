import { callVendor, fieldOf, ProviderError } from './provider.ts';

// The authentication template a WhatsApp Cloud API provider sends codes with, as Meta's Business Management API
// documents it: found by name among the business account's templates (`GET /{waba_id}/message_templates`),
// created where it is missing (`POST /{waba_id}/message_templates`, category AUTHENTICATION: Meta's preset body
// with the security recommendation, the code's expiry in the footer, one OTP button), and, where it is found,
// checked against what the service expects. The button is `copy_code` by default; `one_tap` and `zero_tap`
// name the Android apps (package and SMS Retriever hash) whose code WhatsApp fills in.

export type OtpButton = 'copy_code' | 'one_tap' | 'zero_tap';

export interface AuthTemplateSpec {
  name: string;
  /** Meta's language codes the template is wanted in */
  languages: readonly string[];
  otpType: OtpButton;
  apps: ReadonlyArray<{ packageName: string; signatureHash: string }>;
  /** the footer's "This code expires in N minutes" */
  codeExpirationMinutes: number;
}

export interface TemplateAccount {
  apiUrl: string;
  accessToken: string;
  businessAccountId: string;
}

export interface TemplateReport {
  language: string;
  outcome: 'created' | 'found' | 'differs' | 'failed';
  detail?: string;
}

/** The template's creation request, as Meta's documentation gives it for an authentication template. */
export function authTemplatePayload(spec: AuthTemplateSpec, language: string) {
  const apps = spec.apps.map((a) => ({ package_name: a.packageName, signature_hash: a.signatureHash }));
  const button =
    spec.otpType === 'copy_code'
      ? { type: 'otp', otp_type: 'copy_code' }
      : {
          type: 'otp',
          otp_type: spec.otpType,
          supported_apps: apps,
          ...(spec.otpType === 'zero_tap' ? { zero_tap_terms_accepted: true } : {}),
        };
  return {
    name: spec.name,
    language,
    category: 'authentication',
    message_send_ttl_seconds: spec.codeExpirationMinutes * 60,
    components: [
      { type: 'body', add_security_recommendation: true },
      { type: 'footer', code_expiration_minutes: spec.codeExpirationMinutes },
      { type: 'buttons', buttons: [button] },
    ],
  };
}

/** How a found template's OTP button differs from the one expected; undefined when it does not. */
function difference(found: unknown, spec: AuthTemplateSpec): string | undefined {
  const components = fieldOf(found, 'components');
  const buttons = Array.isArray(components)
    ? components.flatMap((c) => {
        const inner = fieldOf(c, 'buttons');
        return Array.isArray(inner) ? inner : [];
      })
    : [];
  const otp = buttons.find((b) => String(fieldOf(b, 'type')).toLowerCase() === 'otp');
  const type = String(fieldOf(otp, 'otp_type') ?? '').toLowerCase();
  if (type !== spec.otpType) return `its button is ${type || 'missing'}, not ${spec.otpType}`;
  if (spec.otpType === 'copy_code') return undefined;
  const listed = fieldOf(otp, 'supported_apps');
  const apps = Array.isArray(listed) ? listed : [];
  const missing = spec.apps.filter(
    (a) =>
      !apps.some(
        (b) =>
          fieldOf(b, 'package_name') === a.packageName && fieldOf(b, 'signature_hash') === a.signatureHash,
      ),
  );
  return missing.length ? `it does not name ${missing.map((a) => a.packageName).join(', ')}` : undefined;
}

/** Each language's template found, created or found different; a failure is reported, never thrown. */
export async function ensureAuthTemplates(
  account: TemplateAccount,
  spec: AuthTemplateSpec,
): Promise<TemplateReport[]> {
  const root = `${account.apiUrl}/${encodeURIComponent(account.businessAccountId)}/message_templates`;
  const headers = { authorization: `Bearer ${account.accessToken}`, 'content-type': 'application/json' };
  const reports: TemplateReport[] = [];
  for (const language of new Set(spec.languages)) {
    try {
      const listed = await callVendor(
        'WhatsApp Business Management API',
        `${root}?name=${encodeURIComponent(spec.name)}`,
        {
          headers,
        },
      );
      const data = fieldOf(listed, 'data');
      const found = (Array.isArray(data) ? data : []).find(
        (t) => fieldOf(t, 'name') === spec.name && fieldOf(t, 'language') === language,
      );
      if (found) {
        const differs = difference(found, spec);
        reports.push(
          differs ? { language, outcome: 'differs', detail: differs } : { language, outcome: 'found' },
        );
        continue;
      }
      const body = JSON.stringify(authTemplatePayload(spec, language));
      await callVendor('WhatsApp Business Management API', root, { method: 'POST', headers, body });
      reports.push({ language, outcome: 'created' });
    } catch (err) {
      const detail = err instanceof ProviderError ? err.message : 'unreachable';
      reports.push({ language, outcome: 'failed', detail: detail.slice(0, 200) });
    }
  }
  return reports;
}
