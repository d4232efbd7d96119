// What a delivery receipt changes: the message's recorded state, and for a code that did not arrive, its one
// re-send.
//
// Rules it enforces:
// - A receipt changes only the message the provider that sent it knows by that id; any other is ignored.
// - A receipt the vendor dates more than RECEIPT_MAX_AGE_SECONDS ago is ignored (a replayed or long-delayed
//   callback); one without a date (Twilio's) is taken as new.
// - A receipt that says what the vendor charged sets the message's price: it outranks the price table.
// - A status the message's history holds already is not recorded twice: a vendor's retry or a replay of a
//   receipt changes nothing, counts nothing and re-sends nothing.
// - A receipt of `failed` or `undelivered` re-sends the same code once, while it lives, through the providers
//   after the one that failed, or the fallback channel (storage/rules/message-resend.ts).
// - The re-send passes the SMS defence as a first send does (sms-defence/send-defence.ts): it spends the day's budget and
//   counts for the country's breaker, and is skipped, with the reason recorded on the message, when either
//   stops it. One with no provider left to carry it is skipped (`no_route`) before anything is spent.
import type { Logger } from 'pino';
import { pickLanguage } from '../../i18n/languages.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Channel } from '../../providers/messaging/provider.ts';
import type { Receipt } from '../../providers/messaging/receipts/receipt.ts';
import type { Database } from '../../storage/db.ts';
import { messagesRepo } from '../../storage/repositories/messages.ts';
import { claimResend } from '../../storage/rules/message-resend.ts';
import type { Count, Durations } from '../counts.ts';
import { maskPhone } from '../phone.ts';
import type { SendDefence } from '../sms-defence/send-defence.ts';
import type { MessageLog } from './message-log.ts';
import type { Messenger } from './messenger.ts';

export interface MessageReceiptsDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  messenger: Messenger;
  log: MessageLog;
  /** the budget and the breaker a re-send passes */
  defence: Pick<SendDefence, 'admitResend' | 'resent'>;
  /** each receipt's status, by channel and provider */
  messages?: Count<'channel' | 'provider' | 'outcome'>;
  /** the seconds from send to delivery, where a receipt reports one */
  deliveries?: Durations<'channel' | 'provider'>;
}

/** How old a vendor's dated receipt may be and still count: a day. */
export const RECEIPT_MAX_AGE_SECONDS = 24 * 3600;

export class MessageReceipts {
  constructor(private readonly d: MessageReceiptsDeps) {}

  async apply(provider: string, receipt: Receipt): Promise<void> {
    const now = this.d.clock.now();
    const ageSeconds = receipt.reportedAt ? (now.getTime() - receipt.reportedAt.getTime()) / 1000 : 0;
    if (ageSeconds > RECEIPT_MAX_AGE_SECONDS) return;
    const message = await messagesRepo.byVendorId(this.d.db, provider, receipt.providerMessageId);
    if (!message) return;
    // The vendor's own charge, where the receipt says, is what the message cost.
    if (!(await messagesRepo.addStatus(this.d.db, message.id, receipt.status, now, receipt.price))) return;
    const delivered = receipt.status === 'delivered' && !message.delivered_at;
    const after = delivered ? (now.getTime() - message.created_at.getTime()) / 1000 : undefined;
    const { channel } = message;
    this.d.messages?.inc({ channel, provider, outcome: receipt.status });
    if (after !== undefined) this.d.deliveries?.observe({ channel, provider }, after);
    if (receipt.status === 'failed' || receipt.status === 'undelivered') await this.resend(message.id);
  }

  /** The message's one re-send, if it is a code that still lives. */
  private async resend(messageId: string): Promise<void> {
    const claim = await claimResend(this.d.db, messageId, this.d.clock.now());
    if (!claim) return;
    const channel = claim.channel as Channel;
    const after = { channel, provider: claim.provider };
    // Nothing is spent for a re-send that no provider is left to carry.
    const refusal = this.d.messenger.canResend(claim.phone, after)
      ? await this.d.defence.admitResend(claim.phone)
      : 'no_route';
    if (refusal) {
      await messagesRepo.markResendSkipped(this.d.db, messageId, refusal);
      this.d.logger.warn({ to: maskPhone(claim.phone), reason: refusal }, 'a failed code was not re-sent');
      return;
    }
    const code = {
      value: this.d.log.openCode(claim.sealed_code),
      otpId: claim.otp_id,
      expiresAt: claim.code_expires_at,
    };
    await this.d.messenger
      .sendCode(claim.phone, channel, code, {
        after,
        language: pickLanguage([claim.language], 'en'),
      })
      .then(() => this.d.defence.resent(claim.phone))
      .catch((err: Error) =>
        this.d.logger.warn(
          { to: maskPhone(claim.phone), err: err.message },
          'a failed code could not be re-sent',
        ),
      );
  }
}
