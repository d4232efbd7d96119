// What operators see of every message: who it went to, by which channel and provider, what each attempt did,
// and its delivery as the vendor reports it.
//
// Rules it enforces:
// - Every message is recorded, also one that no provider carried (its status `failed`).
// - A code's own digits are kept only sealed, only while the code may be re-sent (until it expires).
// - A code a provider took is counted for operators once, by country, provider and channel, with its price.
import type { Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import { MessageInserts } from '../../storage/batches/message-inserts.ts';
import type { Database } from '../../storage/db.ts';
import type { MessageAttempt, MessageStatus } from '../../storage/repositories/messages.ts';
import type { Count, Tally } from '../counts.ts';
import { countryOf } from '../phone.ts';
import type { PurposeKeys } from '../purpose-keys.ts';

export interface LoggedMessage {
  to: string;
  kind: 'code' | 'notice';
  /** the channel and provider that carried it; the last tried when none did */
  channel: string;
  language: string;
  provider: string | null;
  providerMessageId?: string;
  attempts: MessageAttempt[];
  /** the code and its row, for a re-send when the vendor reports the message failed */
  code?: { value: string; otpId: string; expiresAt: Date };
  /** what the provider's configuration says a message to this country costs */
  price: number | null;
  /** a re-send after a failure report, which is never re-sent again */
  isResend: boolean;
}

export interface MessageLogDeps {
  db: Database;
  clock: Clock;
  random: Random;
  /** seals codes kept for a re-send */
  codeKeys: PurposeKeys;
  /** codes a provider took, by destination country, provider, channel and whether it came after a failure */
  codesSent?: Count<CodeLabel | 'fell_back'>;
  /** what those codes cost, as priced when sent */
  codesCost?: Tally<CodeLabel>;
}

type CodeLabel = 'country' | 'provider' | 'channel';

export class MessageLog {
  readonly #inserts: MessageInserts;
  constructor(private readonly d: MessageLogDeps) {
    this.#inserts = new MessageInserts(d.db);
  }

  async record(m: LoggedMessage): Promise<string> {
    const id = this.d.random.timeOrderedId();
    const status: MessageStatus = m.attempts.some((a) => a.ok) ? 'queued' : 'failed';
    const resendable = m.code && status === 'queued' && !m.isResend;
    await this.#inserts.insert({
      id,
      phone: m.to,
      country: countryOf(m.to) ?? null,
      kind: m.kind,
      otpId: m.code?.otpId ?? null,
      channel: m.channel,
      language: m.language,
      provider: m.provider,
      providerMessageId: m.providerMessageId ?? null,
      status,
      attempts: m.attempts,
      sealedCode: resendable && m.code ? this.d.codeKeys.seal(Buffer.from(m.code.value)) : null,
      codeExpiresAt: resendable && m.code ? m.code.expiresAt : null,
      price: status === 'queued' ? m.price : null,
      createdAt: this.d.clock.now(),
      isResend: m.isResend,
    });
    if (status === 'queued' && m.kind === 'code') this.#count(m);
    return id;
  }

  /** A code a provider took, counted for operators: by country (ISO code, 001 for none), provider and channel. */
  #count(m: LoggedMessage) {
    const labels = { country: countryOf(m.to) ?? '001', provider: m.provider ?? '', channel: m.channel };
    this.d.codesSent?.inc({ ...labels, fell_back: String(m.attempts.length > 1) });
    if (m.price) this.d.codesCost?.inc(labels, m.price);
  }

  /** The code sealed in a message, opened. */
  openCode(sealed: string): string {
    return this.d.codeKeys.open(sealed).toString();
  }
}
