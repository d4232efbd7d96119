import { CHANNELS, type Channel } from '../../providers/messaging/provider.ts';
import { fieldError } from '../errors.ts';

// What a phone is sent: the code's text, written so that phones can fill the code in.
//
// - The SMS's last line is the WebOTP line, `@<host> #<code>` (the host of AUTH_URL, without its port), which
//   browsers read to offer the code to the page that asked for it.
// - With SMS_APP_HASH (the 11 characters Android's SMS Retriever matches an app by), the hash stands alone on
//   the line before it.

export interface CodeTextSettings {
  /** AUTH_URL's host name */
  webOtpHost: string;
  /** SMS_APP_HASH */
  appHash?: string;
}

/** The text message of a code. */
export function codeText(code: string, s: CodeTextSettings): string {
  const lines = [`Your verification code is ${code}. It expires in 5 minutes. Never share it.`, ''];
  if (s.appHash) lines.push(s.appHash);
  lines.push(`@${s.webOtpHost} #${code}`);
  return lines.join('\n');
}

/** What a voice call says before it reads the code digit by digit. */
export const SPOKEN_INTRO = 'Your verification code is';

/** A channel as a client names it; INVALID_REQUEST (`channel`) for any other value. */
export function parseChannel(input: string): Channel {
  const channel = CHANNELS.find((c) => c === input);
  if (!channel) throw fieldError('INVALID_REQUEST', 'channel', 'channel must be sms, whatsapp or voice');
  return channel;
}
