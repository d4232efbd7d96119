import { type Language, translate } from '../../i18n/languages.ts';
import { CHANNELS, type Channel } from '../../providers/messaging/provider.ts';
import { fieldError } from '../errors.ts';

// What a phone is sent: the code's text, written so that phones can fill the code in.
//
// - The SMS's last line is the WebOTP line, `@<host> #<code>` (the host of AUTH_URL, without its port), which
//   browsers read to offer the code to the page that asked for it.
// - Each app hash (the 11 characters Android's SMS Retriever matches an app by: SMS_APP_HASH, and the third
//   field of each ANDROID_APPS entry) stands alone on a line before it, once.
// - The code is the text's only run of digits of 4 to 10 besides the WebOTP line's, as Android's SMS User
//   Consent API reads it.

export interface CodeTextSettings {
  /** AUTH_URL's host name */
  webOtpHost: string;
  /** SMS_APP_HASH and the ANDROID_APPS hashes */
  appHashes?: readonly string[];
}

/** The text message of a code, in the language. */
export function codeText(code: string, s: CodeTextSettings, language: Language = 'en'): string {
  const lines = [translate(language, 'phone.code', { code, minutes: 5 }), ''];
  for (const hash of new Set(s.appHashes ?? [])) lines.push(hash);
  lines.push(`@${s.webOtpHost} #${code}`);
  return lines.join('\n');
}

/** What a voice call says before it reads the code digit by digit, in the language. */
export const spokenIntro = (language: Language) => translate(language, 'phone.voice_intro');

/** A channel as a client names it; INVALID_REQUEST (`channel`) for any other value. */
export function parseChannel(input: string): Channel {
  const channel = CHANNELS.find((c) => c === input);
  if (!channel) throw fieldError('INVALID_REQUEST', 'channel', 'channel must be sms, whatsapp or voice');
  return channel;
}
