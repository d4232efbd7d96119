import type { Config } from '../../config/config.ts';
import { ConsoleSms } from './console-sms.ts';
import { HttpSms } from './http-sms.ts';
import type { SmsProvider } from './sms-provider.ts';
import { TwilioSms } from './twilio-sms.ts';

export function smsProviderFor(config: Config): SmsProvider {
  switch (config.smsProvider) {
    case 'http':
      return new HttpSms(config.smsHttpUrl as string);
    case 'twilio':
      return new TwilioSms(config.twilio as NonNullable<Config['twilio']>);
    default:
      return new ConsoleSms();
  }
}
