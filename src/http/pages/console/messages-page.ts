import type { DeliveryRate } from '../../../domain/messaging/message-records.ts';
import type { Message } from '../../admin/message-routes.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { consolePage, type Frame, table } from './layout.ts';

export type MessageSummary = Answered<typeof Message>;

const percent = (x: number | null) => (x === null ? '–' : `${Math.round(x * 100)}%`);

/**
 * A message a provider took (queued) or sent, through a provider that reports no deliveries, is "sent, no
 * receipts": it will not move on, and it is not undelivered.
 */
const statusOf = (m: MessageSummary) =>
  (m.status === 'queued' || m.status === 'sent') && !m.receipts ? 'sent, no receipts' : m.status;

/** Messages to phones: each provider's delivery over the last 24 hours, and the latest messages. */
export const messagesPage = (f: Frame, rates: DeliveryRate[], latest: MessageSummary[]) =>
  consolePage(
    'Messages',
    f,
    `<p>Every code and notice sent to a phone, by channel and provider. Delivery is what the providers'
receipts report; a provider that sends none (the console, an HTTP gateway) says "no receipts".</p>
<h2>Delivery by provider, last 24 hours</h2>
${table(
  ['Provider', 'Sent', 'Delivered', 'Failed', 'Delivery rate'],
  rates.map((r) => [
    esc(r.provider),
    String(r.sent),
    r.receipts ? String(r.delivered) : '–',
    String(r.failed),
    r.receipts ? percent(r.rate) : 'no receipts',
  ]),
  'No messages in the last 24 hours.',
)}
<h2>Latest messages</h2>
${table(
  ['Sent', 'Phone', 'Kind', 'Channel', 'Provider', 'Attempts', 'Status'],
  latest.map((m) => [
    esc(m.created_at.replace('T', ' ').slice(0, 19)),
    esc(m.phone),
    esc(m.kind),
    esc(m.channel),
    esc(m.provider ?? '–'),
    esc(m.attempts.map((a) => `${a.provider}${a.ok ? '' : ' (failed)'}`).join(', ')),
    esc(statusOf(m)),
  ]),
  'No messages yet.',
)}`,
  );
