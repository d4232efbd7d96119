import {
  type Channel,
  callVendor,
  digitsOf,
  fieldOf,
  type MessagingProvider,
  type OutgoingMessage,
  type SentMessage,
} from './provider.ts';

export interface TermiiSettings {
  apiKey: string;
  /** the registered sender ID */
  from: string;
  /** Termii's route: `dnd` (the default: transactional, delivered to numbers on Do-Not-Disturb) or `generic` */
  route: 'dnd' | 'generic';
  /** e.g. https://api.ng.termii.com */
  apiUrl: string;
}

/** Termii's Messaging API for Nigeria and West Africa: `POST /api/sms/send`, JSON, the API key in the body. */
export class TermiiSms implements MessagingProvider {
  readonly channels: readonly Channel[] = ['sms'];
  constructor(
    readonly name: string,
    private readonly s: TermiiSettings,
    /** how long the vendor has to answer */
    private readonly timeoutMs = 5000,
  ) {}

  async send(m: OutgoingMessage): Promise<SentMessage> {
    const body = {
      api_key: this.s.apiKey,
      to: digitsOf(m.to),
      from: this.s.from,
      sms: m.text,
      type: 'plain',
      channel: this.s.route,
    };
    const answer = await callVendor(
      'Termii',
      `${this.s.apiUrl}/api/sms/send`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
      this.timeoutMs,
    );
    const id = fieldOf(answer, 'message_id');
    return typeof id === 'string' ? { providerMessageId: id } : {};
  }
}
