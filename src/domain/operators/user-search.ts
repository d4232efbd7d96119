// What an operator's search of accounts reads from its query: the words searched for (an id, a phone number,
// a handle, an imported id or a part of a name), a KYC status, a range of creation dates, and a cursor.
import type { UserMatch, UserSearch } from '../../storage/repositories/user-search.ts';
import { fieldError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { KYC_STATUSES } from '../kyc/kyc-rules.ts';
import { wholeNumberParam } from '../paging.ts';
import { parsePhone } from '../phone.ts';

export interface UserSearchQuery {
  q?: string;
  kyc_status?: string;
  created_from?: string;
  created_to?: string;
  limit?: string;
  cursor?: string;
}

const SEARCH_MAX = 100;

function matchOf(q: string | undefined): UserMatch | undefined {
  const words = q?.trim() ?? '';
  if (!words) return undefined;
  if (words.length > 255) throw fieldError('INVALID_REQUEST', 'q', 'q must be at most 255 characters');
  if (isUuid(words)) return { by: 'id', value: words.toLowerCase() };
  if (/^\+?[\d\s().-]{6,}$/.test(words)) {
    try {
      return { by: 'phone', value: parsePhone(words.startsWith('+') ? words : `+${words}`).e164 };
    } catch {}
  }
  return { by: 'text', handle: words.replace(/^@/, '').toLowerCase(), value: words };
}

/** A day (YYYY-MM-DD) or a time; `to` includes the whole of its day. */
function dateOf(field: string, value: string | undefined, endOfDay: boolean): Date | undefined {
  if (!value) return undefined;
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = new Date(day ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at.getTime()))
    throw fieldError('INVALID_REQUEST', field, `${field} must be a date (YYYY-MM-DD)`);
  return day && endOfDay ? new Date(at.getTime() + 86_400_000) : at;
}

/** The cursor a page ends with: the last account's creation time and id. */
export const cursorOf = (row: { created_at: Date; id: string }) =>
  Buffer.from(`${row.created_at.toISOString()}|${row.id}`).toString('base64url');

function afterOf(cursor: string | undefined): UserSearch['after'] {
  if (!cursor) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (Number.isNaN(createdAt.getTime()) || !id || !isUuid(id))
    throw fieldError('INVALID_REQUEST', 'cursor', 'cursor is not one a page answered');
  return { createdAt, id };
}

export function parseUserSearch(query: UserSearchQuery): UserSearch {
  const limit = wholeNumberParam(query.limit, 1, SEARCH_MAX, 50);
  if (limit === undefined) throw fieldError('INVALID_REQUEST', 'limit', `limit must be 1-${SEARCH_MAX}`);
  const kycStatus = query.kyc_status || undefined;
  if (kycStatus && !(KYC_STATUSES as readonly string[]).includes(kycStatus))
    throw fieldError('INVALID_REQUEST', 'kyc_status', `kyc_status must be one of ${KYC_STATUSES.join(', ')}`);
  return {
    match: matchOf(query.q),
    kycStatus,
    createdFrom: dateOf('created_from', query.created_from, false),
    createdBefore: dateOf('created_to', query.created_to, true),
    after: afterOf(query.cursor),
    limit,
  };
}
