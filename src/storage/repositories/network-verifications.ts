import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

/** A silent proof of a number by its mobile network, from the start to its use. */
export interface NetworkVerificationRow {
  id: string;
  phone: string;
  purpose: string;
  provider: string;
  country: string | null;
  language: string;
  state_hash: string;
  /** what the check needs on the device's return, sealed */
  pending_enc: string;
  /** verified, other_number, unavailable or error; null until the device is back */
  outcome: string | null;
  detail: string | null;
  created_at: Date;
  expires_at: Date;
  finished_at: Date | null;
  used_at: Date | null;
}

export const networkVerificationsRepo = {
  insert: (q: Queryable, v: Omit<NetworkVerificationRow, 'outcome' | 'detail' | 'finished_at' | 'used_at'>) =>
    all(
      q,
      sql`INSERT INTO network_verifications
            (id, phone, purpose, provider, country, language, state_hash, pending_enc, created_at, expires_at)
          VALUES (${v.id}, ${v.phone}, ${v.purpose}, ${v.provider}, ${v.country}, ${v.language}, ${v.state_hash},
            ${v.pending_enc}, ${v.created_at}, ${v.expires_at})`,
    ),

  /** The check's outcome, written by the return that claimed it. */
  writeOutcome: (q: Queryable, id: string, outcome: string, detail: string | null) =>
    all(q, sql`UPDATE network_verifications SET outcome = ${outcome}, detail = ${detail} WHERE id = ${id}`),

  byId: (q: Queryable, id: string) =>
    first<NetworkVerificationRow>(q, sql`SELECT * FROM network_verifications WHERE id = ${id}`),

  /** The checks started since `since` (a UTC day's), counted against the daily budget. */
  startedSince: async (q: Queryable, since: Date) =>
    (
      await first<{ n: number }>(
        q,
        sql`SELECT count(*)::int AS n FROM network_verifications WHERE created_at >= ${since}`,
      )
    )?.n ?? 0,
};
