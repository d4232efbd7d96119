import {
  type Channel,
  callVendor,
  digitsOf,
  fieldOf,
  type MessagingProvider,
  type OutgoingMessage,
  ProviderError,
  type SentMessage,
  vendorPrice,
} from './provider.ts';

export interface VonageSettings {
  apiKey: string;
  apiSecret: string;
  from: string;
  /** e.g. https://rest.nexmo.com */
  apiUrl: string;
  /** where Vonage sends the message's delivery receipt */
  callback?: string;
}

/** Vonage's statuses that are its own trouble, not the message's: 1 Throttled, 5 Internal Error. */
const VONAGE_UNAVAILABLE = new Set(['1', '5']);

/**
 * Vonage's SMS API (`POST /sms/json`, form-encoded, the key and secret in the form). Vonage answers 200 even
 * when it refuses a message: each message's `status` other than "0" is a failure, named by its `error-text`.
 */
export class VonageSms implements MessagingProvider {
  readonly channels: readonly Channel[] = ['sms'];
  constructor(
    readonly name: string,
    private readonly s: VonageSettings,
    /** how long the vendor has to answer */
    private readonly timeoutMs = 5000,
  ) {}

  async send(m: OutgoingMessage): Promise<SentMessage> {
    const form = {
      api_key: this.s.apiKey,
      api_secret: this.s.apiSecret,
      from: this.s.from,
      to: digitsOf(m.to),
      text: m.text,
      ...(this.s.callback ? { callback: this.s.callback } : {}),
      // Unicode keeps texts in other scripts whole (Vonage's `type`).
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the GSM-7 test is on code points
      ...(/^[\u0000-\u007f]*$/.test(m.text) ? {} : { type: 'unicode' }),
    };
    const answer = await callVendor(
      'Vonage',
      `${this.s.apiUrl}/sms/json`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      },
      this.timeoutMs,
    );
    const messages = fieldOf(answer, 'messages');
    const first = Array.isArray(messages) ? messages[0] : undefined;
    const status = fieldOf(first, 'status');
    if (status !== '0')
      throw new ProviderError(
        `Vonage refused the message: status ${String(status)} ${String(fieldOf(first, 'error-text') ?? '')}`.trim(),
        VONAGE_UNAVAILABLE.has(String(status)) ? 'unavailable' : 'refused',
      );
    const id = fieldOf(first, 'message-id');
    const price = vendorPrice(fieldOf(first, 'message-price'));
    return { ...(typeof id === 'string' ? { providerMessageId: id } : {}), ...price };
  }
}
