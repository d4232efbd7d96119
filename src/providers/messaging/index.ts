import type { ProviderConfig } from '../../config/messaging-providers.ts';
import { ConsoleMessages } from './console.ts';
import { HttpGateway } from './http-gateway.ts';
import { Msg91 } from './msg91.ts';
import type { MessagingProvider } from './provider.ts';
import { TermiiSms } from './termii.ts';
import { TwilioMessages } from './twilio.ts';
import { VonageSms } from './vonage.ts';
import { WhatsAppCloud } from './whatsapp-cloud.ts';

const str = (p: ProviderConfig, key: string) => p[key] as string;
const optional = (p: ProviderConfig, key: string) => p[key] as string | undefined;

/** A configured provider (MESSAGING_CONFIG, or SMS_PROVIDER as one provider), ready to send. */
export function providerOf(p: ProviderConfig): MessagingProvider {
  switch (p.type) {
    case 'twilio':
      return new TwilioMessages(p.name, {
        accountSid: str(p, 'account_sid'),
        authToken: str(p, 'auth_token'),
        from: str(p, 'from'),
        whatsappContentSid: optional(p, 'whatsapp_content_sid'),
        whatsappFrom: optional(p, 'whatsapp_from'),
        voiceFrom: optional(p, 'voice_from'),
        apiUrl: optional(p, 'api_url') ?? 'https://api.twilio.com',
      });
    case 'whatsapp_cloud':
      return new WhatsAppCloud(p.name, {
        phoneNumberId: str(p, 'phone_number_id'),
        accessToken: str(p, 'access_token'),
        template: str(p, 'template'),
        language: optional(p, 'language') ?? 'en_US',
        languages: (p.languages as Record<string, string> | undefined) ?? {},
        apiUrl: optional(p, 'api_url') ?? 'https://graph.facebook.com/v21.0',
      });
    case 'vonage':
      return new VonageSms(p.name, {
        apiKey: str(p, 'api_key'),
        apiSecret: str(p, 'api_secret'),
        from: str(p, 'from'),
        apiUrl: optional(p, 'api_url') ?? 'https://rest.nexmo.com',
      });
    case 'msg91':
      return new Msg91(p.name, {
        authKey: str(p, 'auth_key'),
        templateId: str(p, 'template_id'),
        apiUrl: optional(p, 'api_url') ?? 'https://control.msg91.com',
      });
    case 'termii':
      return new TermiiSms(p.name, {
        apiKey: str(p, 'api_key'),
        from: str(p, 'from'),
        route: (optional(p, 'route') as 'dnd' | 'generic' | undefined) ?? 'dnd',
        apiUrl: optional(p, 'api_url') ?? 'https://api.ng.termii.com',
      });
    case 'http':
      return new HttpGateway(p.name, str(p, 'url'), ['sms', 'whatsapp', 'voice']);
    case 'console':
      return new ConsoleMessages(p.name);
  }
}
