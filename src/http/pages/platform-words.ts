import { translate } from '../../i18n/languages.ts';
import type { View } from './view.ts';

/** The words of the page's language for each platform a session can be on. */
const PLATFORM_WORDS = {
  android: 'account.platform.android',
  ios: 'account.platform.ios',
  web: 'account.platform.web',
  desktop: 'account.platform.desktop',
} as const;

const isNamed = (platform: string): platform is keyof typeof PLATFORM_WORDS => platform in PLATFORM_WORDS;

/** A session's platform in the page's words, as plain text (one it does not know, as it is). */
export const platformWords = (v: View, platform: string) =>
  isNamed(platform) ? translate(v.lang, PLATFORM_WORDS[platform]) : platform;
