import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import {
  codeEconomicsRepo,
  ECONOMICS_DIMENSIONS,
  type EconomicsDimension,
  type EconomicsRow,
} from '../../storage/repositories/code-economics.ts';
import { fieldError } from '../errors.ts';

/** Hours still rolled up again every hour: a receipt or an entered code may come this late. */
export const LIVE_HOURS = 26;
/** The longest span one report covers. */
export const MOST_DAYS = 92;
const HOUR_MS = 3_600_000;

/** The start of the UTC hour `at` falls in. */
export const hourOf = (at: Date) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

/** A report's row: its figures, with the codes asked for (sent or refused) and the share entered. */
export type EconomicsReportRow = EconomicsRow & { requested: number; conversion: number | null };

/** The sends a row's figures refused, by every defence and limit. */
const refusedOf = (r: EconomicsRow) =>
  r.refused_country +
  r.refused_type +
  r.refused_prefix +
  r.challenged +
  r.over_cap +
  r.over_budget +
  r.rate_limited;

/** What a report is asked for, as the admin API takes it. */
export interface EconomicsQuery {
  from?: string;
  to?: string;
  group_by?: string;
}

/**
 * The economics of codes for operators: per hour (or day), destination country, provider and channel, the codes
 * sent, delivered and entered, the sends each defence refused, the failovers, the silent checks, and what they
 * cost. Hours are rolled up from their sources by an hourly job while the sources are kept; the latest hours are
 * read from the sources themselves.
 */
export class CodeEconomics {
  constructor(private readonly d: { db: Database; clock: Clock }) {}

  /** The hourly job's work: the last LIVE_HOURS hours rolled up again, to the start of this hour. */
  rollUp(now: Date): Promise<void> {
    const to = hourOf(now);
    return codeEconomicsRepo.rollUp(this.d.db, addSeconds(to, -LIVE_HOURS * 3600), to);
  }

  /** The report of `q`: the 7 days to the end of this hour, by day and country, unless asked otherwise. */
  async report(
    q: EconomicsQuery,
  ): Promise<{ from: string; to: string; group_by: string[]; rows: EconomicsReportRow[] }> {
    const now = this.d.clock.now();
    // Unless asked otherwise, whole hours: to the end of this one.
    const to = q.to === undefined ? addSeconds(hourOf(now), 3600) : instant(q.to, 'to');
    const from = q.from === undefined ? addSeconds(to, -7 * 86_400) : instant(q.from, 'from');
    if (from >= to) throw fieldError('INVALID_REQUEST', 'from', 'from must be before to');
    if (to.getTime() - from.getTime() > MOST_DAYS * 86_400_000)
      throw fieldError('INVALID_REQUEST', 'from', `a report covers at most ${MOST_DAYS} days`);
    const dims = dimensions(q.group_by ?? 'day,country');
    const liveSince = addSeconds(hourOf(now), -LIVE_HOURS * 3600);
    const rows = (await codeEconomicsRepo.report(this.d.db, { from, to, liveSince }, dims)).map((r) => ({
      ...r,
      requested: r.sent + refusedOf(r),
      conversion: r.sent ? r.verified / r.sent : null,
    }));
    return { from: from.toISOString(), to: to.toISOString(), group_by: dims, rows };
  }
}

function instant(value: string, field: string): Date {
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime()))
    throw fieldError('INVALID_REQUEST', field, `${field} must be an ISO 8601 date or time`);
  return at;
}

function dimensions(groupBy: string): EconomicsDimension[] {
  const dims = groupBy
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  const known = (d: string): d is EconomicsDimension =>
    (ECONOMICS_DIMENSIONS as readonly string[]).includes(d);
  if (dims.some((d) => !known(d)) || new Set(dims).size !== dims.length)
    throw fieldError(
      'INVALID_REQUEST',
      'group_by',
      `group_by is a list of ${ECONOMICS_DIMENSIONS.join(', ')}`,
    );
  if (dims.includes('hour') && dims.includes('day'))
    throw fieldError('INVALID_REQUEST', 'group_by', 'group_by takes hour or day, not both');
  return dims.filter(known);
}
