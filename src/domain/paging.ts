import { fieldError } from './errors.ts';

/**
 * A whole-number query parameter in [min, max], written in plain decimal digits (Number() would also take
 * "0x10", "1e1" and " 5"); `fallback` when absent, undefined when malformed.
 */
export function wholeNumberParam(
  raw: unknown,
  min: number,
  max: number,
  fallback: number,
): number | undefined {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^(0|[1-9][0-9]{0,8})$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= min && n <= max ? n : undefined;
}

/** A send's states in a log of sends (webhook deliveries, D32; back-channel logouts). */
export const SEND_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

export interface SendLogPage {
  status?: SendStatus;
  /** the `created_at` of the previous page's last row */
  before?: Date;
  limit: number;
}

/** The query of a newest-first log of sends: `status`, `limit` (1-200, 50) and `before`. */
export function parseSendLogPage(query: {
  status?: unknown;
  before?: unknown;
  limit?: unknown;
}): SendLogPage {
  const status = query.status;
  if (status !== undefined && !(SEND_STATUSES as readonly unknown[]).includes(status))
    throw fieldError('INVALID_REQUEST', 'status', 'status must be pending, delivered or failed');
  const limit = wholeNumberParam(query.limit, 1, 200, 50);
  if (limit === undefined) throw fieldError('INVALID_REQUEST', 'limit', 'limit must be 1-200');
  const before = query.before === undefined ? undefined : new Date(String(query.before));
  if (before && Number.isNaN(before.getTime()))
    throw fieldError('INVALID_REQUEST', 'before', 'before must be an ISO 8601 timestamp');
  return { status: status as SendStatus | undefined, before, limit };
}
