import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export const MESSAGE_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'undelivered'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** One try of one provider. */
export interface MessageAttempt {
  provider: string;
  channel: string;
  ok: boolean;
  /** what the provider's failure said (never a secret) */
  error?: string;
  ms: number;
}

export interface NewMessage {
  id: string;
  phone: string;
  country: string | null;
  kind: 'code' | 'notice';
  otpId: string | null;
  channel: string;
  language: string;
  provider: string | null;
  providerMessageId: string | null;
  status: MessageStatus;
  attempts: MessageAttempt[];
  sealedCode: string | null;
  codeExpiresAt: Date | null;
  price: number | null;
  createdAt: Date;
  /** this message is itself a re-send: it is never re-sent again */
  isResend: boolean;
}

export interface MessageRow {
  id: string;
  phone: string;
  country: string | null;
  kind: 'code' | 'notice';
  otp_id: string | null;
  channel: string;
  provider: string | null;
  provider_message_id: string | null;
  status: MessageStatus;
  history: Array<{ status: MessageStatus; at: string }>;
  attempts: MessageAttempt[];
  resent: boolean;
  resend_skipped: string | null;
  price: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

const COLUMNS = sql`id, phone, country, kind, otp_id, channel, provider, provider_message_id, status, history,
  attempts, resent, resend_skipped, price, created_at, delivered_at`;

export interface MessageFilter {
  phone?: string;
  status?: MessageStatus;
  provider?: string;
  limit: number;
}

const valuesOf = (m: NewMessage) =>
  sql`(${m.id}::uuid, ${m.phone}, ${m.country}, ${m.kind}, ${m.otpId}::uuid, ${m.channel}, ${m.language}, ${m.provider},
    ${m.providerMessageId}, ${m.status}, ${JSON.stringify([{ status: m.status, at: m.createdAt.toISOString() }])}::jsonb,
    ${JSON.stringify(m.attempts)}::jsonb, ${m.sealedCode}, ${m.codeExpiresAt}::timestamptz, ${m.price}::numeric,
    ${m.createdAt}::timestamptz, ${m.isResend}::boolean)`;

export const messagesRepo = {
  /** The messages, in one statement. */
  insertMany: (q: Queryable, messages: NewMessage[]) =>
    all(
      q,
      sql`INSERT INTO messages (id, phone, country, kind, otp_id, channel, language, provider, provider_message_id, status,
          history, attempts, sealed_code, code_expires_at, price, created_at, resent)
        VALUES ${sql.join(messages.map(valuesOf), ', ')}`,
    ),

  get: (q: Queryable, id: string) =>
    first<MessageRow>(q, sql`SELECT ${COLUMNS} FROM messages WHERE id = ${id}`),

  byVendorId: (q: Queryable, provider: string, providerMessageId: string) =>
    first<MessageRow>(
      q,
      sql`SELECT ${COLUMNS} FROM messages WHERE provider = ${provider} AND provider_message_id = ${providerMessageId}`,
    ),

  /** The newest messages first, filtered. */
  list: (q: Queryable, f: MessageFilter) =>
    all<MessageRow>(
      q,
      sql`SELECT ${COLUMNS} FROM messages
        WHERE (${f.phone ?? null}::text IS NULL OR phone = ${f.phone ?? null})
          AND (${f.status ?? null}::text IS NULL OR status = ${f.status ?? null})
          AND (${f.provider ?? null}::text IS NULL OR provider = ${f.provider ?? null})
        ORDER BY created_at DESC, id LIMIT ${f.limit}`,
    ),

  /**
   * A status the vendor reported, added to the message's history; `delivered_at` set by the first delivery.
   * A status the history holds already is not added again: answers false, and nothing changed.
   */
  addStatus: async (q: Queryable, id: string, status: MessageStatus, at: Date, price?: number) =>
    (
      await all(
        q,
        sql`UPDATE messages SET status = ${status}, price = coalesce(${price ?? null}::numeric, price),
          history = history || ${JSON.stringify([{ status, at: at.toISOString() }])}::jsonb,
          delivered_at = CASE WHEN ${status} IN ('delivered', 'read') THEN coalesce(delivered_at, ${at}::timestamptz)
            ELSE delivered_at END
        WHERE id = ${id} AND NOT history @> ${JSON.stringify([{ status }])}::jsonb
        RETURNING id`,
      )
    ).length > 0,

  /** The re-send of this failed code was not made, for this reason. */
  markResendSkipped: (q: Queryable, id: string, reason: string) =>
    all(q, sql`UPDATE messages SET resend_skipped = ${reason} WHERE id = ${id}`),

  /** Per provider over the period: messages sent and those the vendor reported delivered (or read). */
  deliveryByProvider: (q: Queryable, since: Date) =>
    all<{ provider: string; sent: number; delivered: number; failed: number }>(
      q,
      sql`SELECT provider, count(*)::int AS sent,
          count(*) FILTER (WHERE delivered_at IS NOT NULL)::int AS delivered,
          count(*) FILTER (WHERE status IN ('failed', 'undelivered'))::int AS failed
        FROM messages WHERE created_at >= ${since} AND provider IS NOT NULL GROUP BY provider ORDER BY provider`,
    ),

  /** Per country (001: numbers with none), the codes a provider took since `since`, and their price summed. */
  codesByCountry: (q: Queryable, since: Date) =>
    all<{ country: string; sent: number; cost: number | null }>(
      q,
      sql`SELECT coalesce(country, '001') AS country, count(*)::int AS sent, sum(price)::float8 AS cost
        FROM messages WHERE created_at >= ${since} AND kind = 'code' AND status <> 'failed'
        GROUP BY 1 ORDER BY 1`,
    ),
};
