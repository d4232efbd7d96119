import { timingSafeEqual } from 'node:crypto';

/** The delivery states Callsign records, in the order a message goes through them. */
export type DeliveryStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'undelivered';

/** A callback as it arrived: the public address it was sent to, its headers and its body as sent. */
export interface ReceiptRequest {
  /** the address the vendor called, as it knows it (BASE_URL, the path and the query) */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
  query: Record<string, string>;
}

/** One message's new state, as the vendor reports it. */
export interface Receipt {
  providerMessageId: string;
  status: DeliveryStatus;
  /** when the vendor says the status came about, where its callback says (Vonage, Meta) */
  reportedAt?: Date;
  /** what the vendor charged for the message, where its receipt says (Vonage) */
  price?: number;
}

/** `reportedAt` from a Unix time in seconds, as vendors write it in callbacks; nothing when it is not one. */
export function reportedAt(value: string | undefined): { reportedAt?: Date } {
  if (!value || !/^\d{1,12}$/.test(value)) return {};
  return { reportedAt: new Date(Number(value) * 1000) };
}

export interface ReceiptReader {
  /** The receipts of a rightly signed callback; undefined when it is unsigned or wrongly signed. */
  read(req: ReceiptRequest): Receipt[] | undefined;
  /** A vendor's check of the callback address (Meta's verification GET): the text to answer, or undefined. */
  verifySubscription?(query: Record<string, string>): string | undefined;
}

/** Whether two signatures are the same, in time that does not depend on where they differ. */
export function sameSignature(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A header's one value. */
export const headerOf = (req: ReceiptRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The body's fields: a form, or a flat JSON object. */
export function fieldsOf(req: ReceiptRequest): Record<string, string> {
  const type = headerOf(req, 'content-type') ?? '';
  if (type.startsWith('application/json')) {
    try {
      const json: unknown = JSON.parse(req.rawBody);
      if (typeof json !== 'object' || json === null) return {};
      return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, String(v)]));
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(req.rawBody));
}
