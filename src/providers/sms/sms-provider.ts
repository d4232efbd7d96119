/** D37: a provider sends one text to one E.164 number, or throws. */
export interface SmsProvider {
  readonly name: string;
  send(to: string, message: string): Promise<void>;
}

export class SmsSendError extends Error {}
