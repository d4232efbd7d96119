// What an account's phone is told when the ways into the account change: a text in the account's language.
//
// Rules it enforces:
// - The number an account moves away from, a new passkey, a new set of recovery codes, a PIN change, and a PIN
//   reset or a sign-in by a recovery code are told to the phone, so an owner who did not do it learns of it.
// - The change stands whether or not the notice gets through; one that fails is logged at warn, with the
//   number masked.
import type { Logger } from 'pino';
import { type Language, type MessageKey, pickLanguage, translate } from '../../i18n/languages.ts';
import type { Messenger } from '../messaging/messenger.ts';
import { maskPhone } from '../phone.ts';

export type AccountNotice = Extract<
  MessageKey,
  | 'phone.phone_changed'
  | 'phone.passkey_added'
  | 'phone.recovery_codes_created'
  | 'phone.pin_reset_by_recovery_code'
  | 'phone.pin_changed'
  | 'phone.signed_in_by_recovery_code'
>;

/** What each notice tells of, as the log names a notice that failed. */
const SUBJECT: Record<AccountNotice, string> = {
  'phone.phone_changed': 'a phone number change',
  'phone.passkey_added': 'a new passkey',
  'phone.recovery_codes_created': 'a new set of recovery codes',
  'phone.pin_reset_by_recovery_code': 'a PIN reset by a recovery code',
  'phone.pin_changed': 'a PIN change',
  'phone.signed_in_by_recovery_code': 'a sign-in by a recovery code',
};

export interface AccountNoticeDeps {
  messenger: Messenger;
  /** the language of the texts when the account has none */
  defaultLanguage: Language;
  logger: Logger;
}

export class AccountNotices {
  constructor(private readonly d: AccountNoticeDeps) {}

  /** Sends the notice to `phone` (the account's number, or the one it left), in the account's language. */
  async tell(account: { phone: string; language: string | null }, notice: AccountNotice): Promise<void> {
    const language = pickLanguage([account.language], this.d.defaultLanguage);
    await this.d.messenger
      .sendNotice(account.phone, translate(language, notice), language)
      .catch((err: Error) =>
        this.d.logger.warn(
          { to: maskPhone(account.phone), err: err.message },
          `the notice of ${SUBJECT[notice]} could not be sent`,
        ),
      );
  }
}
