import {
  type Channel,
  callVendor,
  type MessagingProvider,
  type OutgoingMessage,
  type SentMessage,
} from './provider.ts';

/**
 * A generic gateway of the operator's own: POST `{to, message, channel, code}` as JSON (`code` only on a
 * message that carries one); any 2xx means sent.
 */
export class HttpGateway implements MessagingProvider {
  constructor(
    readonly name: string,
    private readonly url: string,
    readonly channels: readonly Channel[] = ['sms'],
    /** how long the gateway has to answer */
    private readonly timeoutMs = 5000,
  ) {}

  async send({ to, text, channel, code }: OutgoingMessage): Promise<SentMessage> {
    await callVendor(
      'the SMS gateway',
      this.url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to, message: text, channel, ...(code ? { code } : {}) }),
      },
      this.timeoutMs,
    );
    return {};
  }
}
