import {
  type Channel,
  callVendor,
  fieldOf,
  type MessagingProvider,
  type OutgoingMessage,
  ProviderError,
  type SentMessage,
  vendorPrice,
} from './provider.ts';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** a sender number, or a Messaging Service (MG...) for SMS */
  from: string;
  /** the approved WhatsApp content template (HX...), whose variable {{1}} is the code */
  whatsappContentSid?: string;
  /** the WhatsApp sender, when it is not `from` */
  whatsappFrom?: string;
  /** the number calls come from, when `from` is a Messaging Service or another number should call */
  voiceFrom?: string;
  apiUrl: string;
  /** where Twilio posts the message's or call's status (StatusCallback) */
  statusCallback?: string;
}

/** Twilio's voices' language codes for the languages codes are read in; others are read in English. */
const SAY_LANGUAGES: Record<string, string> = {
  en: 'en-US',
  es: 'es-ES',
  pt: 'pt-BR',
  fr: 'fr-FR',
  hi: 'hi-IN',
  id: 'id-ID',
  ar: 'arb',
  tr: 'tr-TR',
};

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[c]};`);

/** TwiML that reads the code digit by digit, a pause after each, twice. */
export function spokenCodeTwiml(code: string, intro: string, language: string): string {
  const lang = SAY_LANGUAGES[language.split('-')[0]] ?? 'en-US';
  const digits = [...code].map((d) => `<Say language="${lang}">${d}</Say><Pause length="1"/>`).join('');
  const once = `<Say language="${lang}">${escapeXml(intro)}</Say><Pause length="1"/>${digits}`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${once}<Pause length="2"/>${once}</Response>`;
}

/**
 * Twilio. SMS by the Messages API, WhatsApp by the same API with an approved content template
 * (`ContentSid`, `ContentVariables`), voice by the Calls API with TwiML that reads the code. Form-encoded,
 * HTTP Basic with the account SID and auth token.
 */
export class TwilioMessages implements MessagingProvider {
  readonly channels: readonly Channel[];
  constructor(
    readonly name: string,
    private readonly s: TwilioSettings,
    /** how long the vendor has to answer */
    private readonly timeoutMs = 5000,
  ) {
    this.channels = s.whatsappContentSid ? ['sms', 'whatsapp', 'voice'] : ['sms', 'voice'];
  }

  async send(m: OutgoingMessage): Promise<SentMessage> {
    const { accountSid, authToken, apiUrl } = this.s;
    const base = `${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}`;
    const [path, form] =
      m.channel === 'voice' ? ['Calls.json', this.call(m)] : ['Messages.json', this.message(m)];
    const answer = await callVendor(
      'Twilio',
      `${base}/${path}`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams(form),
      },
      this.timeoutMs,
    );
    const sid = fieldOf(answer, 'sid');
    // Twilio prices a message once it is sent: its first answer's `price` is mostly null.
    return {
      ...(typeof sid === 'string' ? { providerMessageId: sid } : {}),
      ...vendorPrice(fieldOf(answer, 'price')),
    };
  }

  private message(m: OutgoingMessage): Record<string, string> {
    const { from, whatsappContentSid, whatsappFrom } = this.s;
    if (m.channel === 'whatsapp') {
      if (!whatsappContentSid || !m.code) throw new ProviderError('Twilio: WhatsApp carries codes only');
      return {
        To: `whatsapp:${m.to}`,
        From: `whatsapp:${whatsappFrom ?? from}`,
        ContentSid: whatsappContentSid,
        ContentVariables: JSON.stringify({ 1: m.code }),
        ...this.callback(),
      };
    }
    // A value starting with MG is a Messaging Service, which Twilio takes instead of a sender number.
    const sender: Record<string, string> = from.startsWith('MG')
      ? { MessagingServiceSid: from }
      : { From: from };
    return { To: m.to, Body: m.text, ...sender, ...this.callback() };
  }

  private callback(): Record<string, string> {
    return this.s.statusCallback ? { StatusCallback: this.s.statusCallback } : {};
  }

  private call(m: OutgoingMessage): Record<string, string> {
    if (!m.code) throw new ProviderError('Twilio: a call carries codes only');
    return {
      To: m.to,
      From: this.s.voiceFrom ?? this.s.from,
      Twiml: spokenCodeTwiml(m.code, m.text, m.language),
      ...this.callback(),
    };
  }
}
