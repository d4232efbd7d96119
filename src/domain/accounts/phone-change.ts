import { type Language, pickLanguage, translate } from '../../i18n/languages.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Channel } from '../../providers/messaging/provider.ts';
import { type Database, uniqueViolation } from '../../storage/db.ts';
import { phoneRiskRepo } from '../../storage/repositories/phone-risk.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { movePhone } from '../../storage/rules/phone-change.ts';
import type { OtpService } from '../codes/otp.ts';
import { DomainError, fieldError } from '../errors.ts';
import { parsePhone } from '../phone.ts';
import type { ProfileService } from '../profiles/profiles.ts';
import type { SendProof } from '../sms-defence/person-check.ts';
import { type Events, payloads } from '../webhooks/events.ts';
import { pinCheckRefusal } from './account-errors.ts';
import type { AccountNotices } from './account-notices.ts';
import type { AccountService } from './accounts.ts';

export interface PhoneChangeDeps {
  db: Database;
  clock: Clock;
  events: Events;
  otp: OtpService;
  accounts: AccountService;
  profiles: ProfileService;
  /** the language of the texts when the account has none */
  defaultLanguage: Language;
  /** tells the number the account left */
  notices: AccountNotices;
}

/** The notice to the number an account moved away from, in the account's language. */
export const phoneChangedNotice = (language: Language) => translate(language, 'phone.phone_changed');

/**
 * A signed-in account moves to a new phone number, proven by a code sent to it and confirmed with the
 * PIN. Carriers give numbers up and hand them out again; without this, the account stays on a number its
 * user no longer has, and the number's next owner could reset its PIN.
 */
export class PhoneChangeService {
  constructor(private readonly d: PhoneChangeDeps) {}

  /**
   * Step 1: a code to the new number (D6's rules; like sign-up, no live account may have it). `e164`: the
   * number, when the caller has already parsed it.
   */
  async start(
    userId: string,
    phoneInput: string,
    e164?: string,
    opts: { proof?: SendProof; channel?: Channel; languageWishes?: string[] } = {},
  ): Promise<{ expires_in: number; message: string; channel: Channel }> {
    const phone = e164 ?? parsePhone(phoneInput).e164;
    const user = await this.d.profiles.get(userId);
    if (phone === user.phone)
      throw fieldError('INVALID_REQUEST', 'phone', 'this is already the phone number of the account');
    // The code's text in the account's language, else the one the request asks for.
    const language = pickLanguage([user.language, ...(opts.languageWishes ?? [])], this.d.defaultLanguage);
    return this.d.otp.sendCode(phone, 'phone_change', { proof: opts.proof, channel: opts.channel, language });
  }

  /**
   * Step 2: the PIN first (an attempt toward D9's lock, as on deletion), then, in one transaction, the
   * code (5 evaluations; a match is used up) and the move with its user.updated and user.phone_changed.
   * Sessions stay: the user is the same. The previous number is told afterwards.
   */
  async confirm(userId: string, body: { phone: string; code: string; pin: string }): Promise<UserRow> {
    const phone = parsePhone(body.phone).e164;
    const user = await this.d.profiles.get(userId);
    const checked = await this.d.accounts.verifyPinOf(user, body.pin);
    let moved: UserRow | DomainError;
    try {
      moved = await this.d.db.transaction(async (tx) => {
        // The code is used up only if the move commits; a wrong one stays counted.
        const refused = await this.d.otp.submit(tx, phone, 'phone_change', body.code);
        if (refused) return refused;
        // Not if the PIN was set again since it was checked (a reset after a compromise).
        const move = await movePhone(tx, {
          userId,
          phone,
          pinVersion: checked.pin_version,
          now: this.d.clock.now(),
        });
        if (!move.moved) throw await pinCheckRefusal(tx, userId);
        // The code proved the new number: a recycling check counts from now.
        await phoneRiskRepo.proven(tx, userId, this.d.clock.now());
        await this.d.events.emit(tx, 'user.updated', payloads.userUpdated(move.account, ['phone']));
        await this.d.events.emit(tx, 'user.phone_changed', {
          user_id: userId,
          previous_phone: user.phone,
          phone: move.account.phone,
          changed_at: move.account.updated_at.toISOString(),
        });
        return move.account;
      });
    } catch (err) {
      // Another account took the number after the code was sent.
      if (uniqueViolation(err) === 'users_phone_live')
        throw fieldError('PHONE_EXISTS', 'phone', 'this phone number is already registered');
      throw err;
    }
    if (moved instanceof DomainError) throw moved;
    // The move stands whether or not the notice gets through.
    await this.d.notices.tell(user, 'phone.phone_changed');
    return moved;
  }
}
