import {
  type Channel,
  callVendor,
  digitsOf,
  fieldOf,
  type MessagingProvider,
  type OutgoingMessage,
  ProviderError,
  type SentMessage,
} from './provider.ts';

/** Meta's Graph API, where no `api_url` names another. */
export const WHATSAPP_CLOUD_API = 'https://graph.facebook.com/v21.0';
/** A template's language where none is configured. */
export const WHATSAPP_DEFAULT_LANGUAGE = 'en_US';

export interface WhatsAppCloudSettings {
  phoneNumberId: string;
  accessToken: string;
  /** the approved authentication template's name */
  template: string;
  /** the template's language when the message's has none approved (Meta's code, e.g. `en_US`) */
  language: string;
  /** languages the template is approved in, by their first subtag (e.g. `{"pt": "pt_BR"}`) */
  languages: Record<string, string>;
  /** e.g. https://graph.facebook.com/v21.0 */
  apiUrl: string;
}

/**
 * Meta's WhatsApp Cloud API: an authentication template whose body takes the code and whose copy-code button
 * takes it again (`POST /{phone_number_id}/messages`, Bearer token, JSON). Codes only: WhatsApp takes no
 * free text from a business outside a conversation.
 */
export class WhatsAppCloud implements MessagingProvider {
  readonly channels: readonly Channel[] = ['whatsapp'];
  constructor(
    readonly name: string,
    private readonly s: WhatsAppCloudSettings,
    /** how long the vendor has to answer */
    private readonly timeoutMs = 5000,
  ) {}

  async send(m: OutgoingMessage): Promise<SentMessage> {
    if (!m.code) throw new ProviderError('WhatsApp Cloud API: a template carries codes only');
    const code = { type: 'text', text: m.code };
    const language = this.s.languages[m.language.split('-')[0]] ?? this.s.language;
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: digitsOf(m.to),
      type: 'template',
      template: {
        name: this.s.template,
        language: { code: language },
        components: [
          { type: 'body', parameters: [code] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [code] },
        ],
      },
    };
    const answer = await callVendor(
      'WhatsApp Cloud API',
      `${this.s.apiUrl}/${encodeURIComponent(this.s.phoneNumberId)}/messages`,
      {
        method: 'POST',
        headers: { authorization: `Bearer ${this.s.accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      this.timeoutMs,
    );
    const messages = fieldOf(answer, 'messages');
    const id = Array.isArray(messages) ? fieldOf(messages[0], 'id') : undefined;
    return typeof id === 'string' ? { providerMessageId: id } : {};
  }
}
