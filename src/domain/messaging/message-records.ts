import type { Clock } from '../../providers/clock.ts';
import type { Channel } from '../../providers/messaging/provider.ts';
import type { Database } from '../../storage/db.ts';
import { type MessageRow, type MessageStatus, messagesRepo } from '../../storage/repositories/messages.ts';
import { DomainError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { maskPhone } from '../phone.ts';

/** A message as operators see it: the phone masked, its attempts and its delivery. */
export interface MessageView {
  id: string;
  phone: string;
  country: string | null;
  kind: 'code' | 'notice';
  channel: Channel;
  provider: string | null;
  /** whether the provider reports deliveries: without, "sent" is all there will be */
  receipts: boolean;
  status: MessageStatus;
  history: Array<{ status: MessageStatus; at: string }>;
  attempts: MessageRow['attempts'];
  /** milliseconds the provider that took it took to answer */
  latency_ms: number | null;
  /** seconds from sent to the first delivery receipt */
  delivery_seconds: number | null;
  resent: boolean;
  /** why the re-send of this failed code was not made: `daily_limit`, `country_breaker` or `no_route` */
  resend_skipped: string | null;
  price: number | null;
  created_at: string;
  delivered_at: string | null;
}

const viewOf = (m: MessageRow, receiptsFrom: ReadonlySet<string>): MessageView => ({
  id: m.id,
  phone: maskPhone(m.phone),
  country: m.country,
  kind: m.kind,
  channel: m.channel as Channel, // written only from a Channel
  provider: m.provider,
  receipts: m.provider !== null && receiptsFrom.has(m.provider),
  status: m.status,
  history: m.history,
  attempts: m.attempts,
  latency_ms: m.attempts.find((a) => a.ok)?.ms ?? null,
  delivery_seconds: m.delivered_at ? (m.delivered_at.getTime() - m.created_at.getTime()) / 1000 : null,
  resent: m.resent,
  resend_skipped: m.resend_skipped,
  price: m.price === null ? null : Number(m.price),
  created_at: m.created_at.toISOString(),
  delivered_at: m.delivered_at?.toISOString() ?? null,
});

export interface DeliveryRate {
  provider: string;
  sent: number;
  delivered: number;
  failed: number;
  /** delivered / sent; null when none was sent */
  rate: number | null;
  /** whether the provider reports deliveries (the console and http providers do not) */
  receipts: boolean;
}

/** The messages as operators read them. */
export class MessageRecords {
  constructor(
    private readonly d: {
      db: Database;
      clock: Clock;
      /** the providers that send delivery receipts: a message through another stays "sent" */
      receiptsFrom: ReadonlySet<string>;
    },
  ) {}

  async list(filter: { phone?: string; status?: MessageStatus; provider?: string; limit?: number }) {
    const rows = await messagesRepo.list(this.d.db, { ...filter, limit: filter.limit ?? 50 });
    return rows.map((row) => viewOf(row, this.d.receiptsFrom));
  }

  async get(id: string): Promise<MessageView> {
    const row = isUuid(id) ? await messagesRepo.get(this.d.db, id) : undefined;
    if (!row) throw new DomainError('NOT_FOUND', 'no message has this id');
    return viewOf(row, this.d.receiptsFrom);
  }

  /** Per provider over the last 24 hours: messages sent, delivered (by their receipts) and failed. */
  async deliveryRates(): Promise<DeliveryRate[]> {
    const since = new Date(this.d.clock.now().getTime() - 86_400_000);
    const rows = await messagesRepo.deliveryByProvider(this.d.db, since);
    return rows.map((r) => ({
      ...r,
      rate: r.sent ? r.delivered / r.sent : null,
      receipts: this.d.receiptsFrom.has(r.provider),
    }));
  }

  /** Per country over the last 24 hours: the codes a provider took, and what they cost where priced. */
  codesByCountry() {
    return messagesRepo.codesByCountry(this.d.db, new Date(this.d.clock.now().getTime() - 86_400_000));
  }
}
