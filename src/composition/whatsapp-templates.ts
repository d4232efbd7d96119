import type { Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { OTP_TTL_SECONDS } from '../domain/codes/stored-codes.ts';
import { WHATSAPP_CLOUD_API, WHATSAPP_DEFAULT_LANGUAGE } from '../providers/messaging/whatsapp-cloud.ts';
import {
  ensureAuthTemplates,
  type OtpButton,
  type TemplateReport,
} from '../providers/messaging/whatsapp-templates.ts';

/**
 * At start, each WhatsApp Cloud API provider that names its business account gets its authentication template
 * created where it is missing, or checked where it is found; what happened is logged (a template that differs,
 * or Meta out of reach, as an error: codes by WhatsApp may not go as expected). Start-up does not wait for it.
 */
export function whatsappTemplatesFor(config: Config, logger: Logger): Promise<TemplateReport[]> {
  const apps = config.androidApps.flatMap((a) =>
    a.smsHash ? [{ packageName: a.packageName, signatureHash: a.smsHash }] : [],
  );
  const providers = config.messaging.providers.filter(
    (p) => p.type === 'whatsapp_cloud' && typeof p.business_account_id === 'string',
  );
  return Promise.all(
    providers.map(async (p) => {
      const languages = [
        String(p.language ?? WHATSAPP_DEFAULT_LANGUAGE),
        ...Object.values((p.languages ?? {}) as Record<string, string>),
      ];
      const reports = await ensureAuthTemplates(
        {
          apiUrl: String(p.api_url ?? WHATSAPP_CLOUD_API),
          accessToken: String(p.access_token),
          businessAccountId: String(p.business_account_id),
        },
        {
          name: String(p.template),
          languages,
          otpType: (p.otp_type as OtpButton | undefined) ?? 'copy_code',
          apps,
          codeExpirationMinutes: OTP_TTL_SECONDS / 60,
        },
      );
      for (const r of reports) {
        const entry = { provider: p.name, template: p.template, ...r };
        if (r.outcome === 'created' || r.outcome === 'found')
          logger.info(entry, `WhatsApp template ${r.outcome}`);
        else logger.error(entry, `WhatsApp template ${r.outcome}: ${r.detail}`);
      }
      return reports;
    }),
  ).then((all) => all.flat());
}
