// What operators see of the silent checks: per country over the last 24 hours, how many were tried and how
// they ended (proven silently, another number, fell back to a code) and what the checks cost; and the latest
// checks one by one, the number masked, beside the message log.
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import {
  type NetworkVerificationRow,
  networkVerificationsRepo,
} from '../../storage/repositories/network-verifications.ts';
import { maskPhone } from '../phone.ts';

const DAY_MS = 86_400_000;
/** The most checks one list answers. */
export const RECENT_CHECKS_MAX = 200;

/** A check as operators see it. */
export interface NetworkCheckView {
  id: string;
  phone: string;
  country: string | null;
  provider: string;
  purpose: string;
  /** verified, other_number, unavailable or error; `waiting` until the device is back; `expired` if never */
  outcome: string;
  detail: string | null;
  price: number | null;
  created_at: string;
}

function outcomeOf(row: NetworkVerificationRow, now: Date): string {
  if (row.outcome) return row.outcome;
  return row.used_at || row.expires_at <= now ? 'expired' : 'waiting';
}

export class NetworkProofsReport {
  constructor(private readonly d: { db: Database; clock: Clock }) {}

  /** Per country over the last 24 hours, most tried first. */
  countries() {
    return networkVerificationsRepo.byCountrySince(
      this.d.db,
      new Date(this.d.clock.now().getTime() - DAY_MS),
    );
  }

  /** The latest checks, newest first (of one number where `phone` is given). */
  async recent(filter: { phone?: string; limit?: number }): Promise<NetworkCheckView[]> {
    const limit = Math.min(filter.limit ?? 50, RECENT_CHECKS_MAX);
    const rows = await networkVerificationsRepo.recent(this.d.db, limit, filter.phone);
    const now = this.d.clock.now();
    return rows.map((row) => ({
      id: row.id,
      phone: maskPhone(row.phone),
      country: row.country,
      provider: row.provider,
      purpose: row.purpose,
      outcome: outcomeOf(row, now),
      detail: row.detail,
      price: row.price === null ? null : Number(row.price),
      created_at: row.created_at.toISOString(),
    }));
  }
}
