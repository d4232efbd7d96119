import type { ProviderConfig } from '../../config/messaging-providers.ts';
import { ConsoleMessages } from './console.ts';
import { HttpGateway } from './http-gateway.ts';
import { Msg91 } from './msg91.ts';
import type { MessagingProvider } from './provider.ts';
import type { ReceiptReader } from './receipts/receipt.ts';
import { TwilioReceipts } from './receipts/twilio-receipts.ts';
import { VonageReceipts, type VonageSignatureMethod } from './receipts/vonage-receipts.ts';
import { WhatsAppCloudReceipts } from './receipts/whatsapp-cloud-receipts.ts';
import { TermiiSms } from './termii.ts';
import { TwilioMessages } from './twilio.ts';
import { VonageSms } from './vonage.ts';
import { WHATSAPP_CLOUD_API, WHATSAPP_DEFAULT_LANGUAGE, WhatsAppCloud } from './whatsapp-cloud.ts';

const str = (p: ProviderConfig, key: string) => p[key] as string;
const optional = (p: ProviderConfig, key: string) => p[key] as string | undefined;

/**
 * A configured provider (MESSAGING_CONFIG, or SMS_PROVIDER as one provider), ready to send; `receipts` is the
 * address its delivery receipts come to, for the vendors that take one with each message.
 */
export function providerOf(p: ProviderConfig, receipts: string): MessagingProvider {
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
        statusCallback: receipts,
      });
    case 'whatsapp_cloud':
      return new WhatsAppCloud(p.name, {
        phoneNumberId: str(p, 'phone_number_id'),
        accessToken: str(p, 'access_token'),
        template: str(p, 'template'),
        language: optional(p, 'language') ?? WHATSAPP_DEFAULT_LANGUAGE,
        languages: (p.languages as Record<string, string> | undefined) ?? {},
        apiUrl: optional(p, 'api_url') ?? WHATSAPP_CLOUD_API,
      });
    case 'vonage':
      return new VonageSms(p.name, {
        apiKey: str(p, 'api_key'),
        apiSecret: str(p, 'api_secret'),
        from: str(p, 'from'),
        apiUrl: optional(p, 'api_url') ?? 'https://rest.nexmo.com',
        callback: receipts,
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

/** How the provider's delivery receipts are checked and read; undefined for a provider that sends none here. */
export function receiptReaderOf(p: ProviderConfig): ReceiptReader | undefined {
  switch (p.type) {
    case 'twilio':
      return new TwilioReceipts(str(p, 'auth_token'));
    case 'whatsapp_cloud': {
      const secret = optional(p, 'app_secret');
      return secret ? new WhatsAppCloudReceipts(secret, optional(p, 'verify_token')) : undefined;
    }
    case 'vonage': {
      const secret = optional(p, 'signature_secret');
      const method = (optional(p, 'signature_method') as VonageSignatureMethod | undefined) ?? 'md5hash';
      return secret ? new VonageReceipts(secret, method) : undefined;
    }
    default:
      return undefined;
  }
}
