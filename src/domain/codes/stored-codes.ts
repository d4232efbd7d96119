// A code's row and its message: how a code is kept (a keyed hash, counted as sent to its country) and how it
// is carried to the phone.
//
// Rules it enforces:
// - Only a keyed hash of a code is stored; the key is not in the database.
// - A code is counted as sent to its country in the statement that stores it.
// - A code no provider carried is withdrawn (no usable code is left behind) and its count as sent is taken
//   back; the caller hears INTERNAL_ERROR.
// - A send off the request's path spends the day's budget there; a code the budget cannot pay for is
//   withdrawn like one that failed.

import type { Logger } from 'pino';
import type { Language } from '../../i18n/languages.ts';
import type { Clock } from '../../providers/clock.ts';
import { addSeconds } from '../../providers/clock.ts';
import type { Channel } from '../../providers/messaging/provider.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import { storeOtp, withdrawOtp } from '../../storage/rules/otp-codes.ts';
import { hmac } from '../crypto.ts';
import { DomainError } from '../errors.ts';
import type { Messenger } from '../messaging/messenger.ts';
import { MessagingFailed } from '../messaging/messenger.ts';
import { maskPhone } from '../phone.ts';
import type { PurposeKeys } from '../purpose-keys.ts';
import type { SendPass } from '../sms-defence/send-defence.ts';
import type { OtpPurpose } from './purposes.ts';

export const OTP_TTL_SECONDS = 300;

/** The keyed hash a code is stored and compared as. */
export const codeHash = (phone: string, purpose: string, code: string, key: Buffer) =>
  hmac(key, `${phone}\n${purpose}\n${code}`).toString('base64url');

/** A code stored for a phone: its digits, its row, and the country it counts as sent to. */
export interface StoredCode {
  value: string;
  id: string;
  createdAt: Date;
  /** what the SMS defence is told of the code's send */
  pass?: SendPass;
}

/** What storing and carrying a code uses (the codes room's own services). */
export interface StoredCodesDeps {
  db: Database;
  clock: Clock;
  random: Random;
  codeKeys: PurposeKeys;
  messenger: Messenger;
  logger: Logger;
}

export class StoredCodes {
  constructor(private readonly d: StoredCodesDeps) {}

  /**
   * The phone's code for this purpose, replacing the one before; a code with the SMS defence's pass is
   * counted as sent to its country in the same statement. Answers its id, when it was made and the pass.
   */
  async store(phone: string, purpose: OtpPurpose, code: string, pass?: SendPass) {
    const [now, id] = [this.d.clock.now(), this.d.random.timeOrderedId()];
    const hash = codeHash(phone, purpose, code, this.d.codeKeys.current);
    const otp = {
      id,
      phone,
      purpose,
      codeHash: hash,
      createdAt: now,
      expiresAt: addSeconds(now, OTP_TTL_SECONDS),
    };
    await storeOtp(this.d.db, otp, pass && { country: pass.country, attested: pass.attested });
    return { id, createdAt: now, pass };
  }

  /** A new code for the phone, stored and counted as sent to its country as the SMS defence's pass says. */
  async storeCode(phone: string, purpose: OtpPurpose, pass: SendPass): Promise<StoredCode> {
    const value = this.d.random.digits(6);
    return { value, ...(await this.store(phone, purpose, value, pass)) };
  }

  /** A message no provider carried is INTERNAL_ERROR. */
  async deliver<T>(send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof MessagingFailed)) throw err;
      throw new DomainError('INTERNAL_ERROR', 'the message could not be sent; try again later');
    }
  }

  /** Carries a stored code; answers the channel that carried it. One that failed is withdrawn. */
  async send(
    phone: string,
    code: StoredCode,
    how: { channel: Channel; language: Language },
  ): Promise<Channel> {
    try {
      const sent = {
        value: code.value,
        otpId: code.id,
        expiresAt: addSeconds(code.createdAt, OTP_TTL_SECONDS),
      };
      const carried = await this.deliver(() =>
        this.d.messenger.sendCode(phone, how.channel, sent, { language: how.language }),
      );
      code.pass?.sent();
      return carried.channel;
    } catch (err) {
      await this.withdraw(code);
      throw err;
    }
  }

  /** Off the request's path: spends the day's budget, then carries the code; a failure is logged. */
  async spendAndSend(phone: string, code: StoredCode, how: { channel: Channel; language: Language }) {
    const notSent = (err: unknown) =>
      this.d.logger.warn({ to: maskPhone(phone), err: (err as Error).message }, 'a code was not sent');
    try {
      await code.pass?.spend();
    } catch (err) {
      await this.withdraw(code);
      return notSent(err);
    }
    await this.send(phone, code, how).catch(notSent);
  }

  /** No usable code left behind, and none counted as sent. */
  private async withdraw(code: StoredCode) {
    await this.d.db.transaction(async (tx) => {
      await withdrawOtp(tx, code.id, this.d.clock.now());
      await code.pass?.unsent(tx, code.createdAt);
    });
  }
}
