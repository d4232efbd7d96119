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

export interface Msg91Settings {
  authKey: string;
  /** the OTP template, registered on India's DLT with its content, whose ##OTP## is the code */
  templateId: string;
  /** e.g. https://control.msg91.com */
  apiUrl: string;
}

/**
 * MSG91's SendOTP API (v5) for India: `POST /api/v5/otp` with the template, the number and the code in the
 * query and the `authkey` header. The text is the DLT-registered template's, so only codes go this way.
 * MSG91 answers `{"type": "success", "request_id": ...}`, or `"type": "error"` with a message, sometimes
 * with a 200.
 */
export class Msg91 implements MessagingProvider {
  readonly channels: readonly Channel[] = ['sms'];
  constructor(
    readonly name: string,
    private readonly s: Msg91Settings,
    /** how long the vendor has to answer */
    private readonly timeoutMs = 5000,
  ) {}

  async send(m: OutgoingMessage): Promise<SentMessage> {
    if (!m.code) throw new ProviderError('MSG91: the DLT template carries codes only');
    const query = new URLSearchParams({
      template_id: this.s.templateId,
      mobile: digitsOf(m.to),
      otp: m.code,
    });
    const answer = await callVendor(
      'MSG91',
      `${this.s.apiUrl}/api/v5/otp?${query}`,
      {
        method: 'POST',
        headers: { authkey: this.s.authKey, 'content-type': 'application/json' },
        body: '{}',
      },
      this.timeoutMs,
    );
    if (fieldOf(answer, 'type') !== 'success')
      throw new ProviderError(
        `MSG91 refused the message: ${String(fieldOf(answer, 'message') ?? 'no reason given')}`,
      );
    const id = fieldOf(answer, 'request_id');
    return typeof id === 'string' ? { providerMessageId: id } : {};
  }
}
