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
  /** what the check cost, where a price is configured for its country */
  price: string | null;
}

/** A country's silent checks over a period, as operators see them. */
export interface NetworkCountryRow {
  country: string;
  tried: number;
  verified: number;
  other_number: number;
  /** the network could not say (Wi-Fi, an operator outside, an error, no answer): a code went instead */
  fell_back: number;
  /** the checks' price summed; null where none had one */
  cost: number | null;
}

export const networkVerificationsRepo = {
  insert: (
    q: Queryable,
    v: Omit<NetworkVerificationRow, 'outcome' | 'detail' | 'finished_at' | 'used_at' | 'price'> & {
      price: number | null;
    },
  ) =>
    all(
      q,
      sql`INSERT INTO network_verifications
            (id, phone, purpose, provider, country, language, state_hash, pending_enc, created_at, expires_at, price)
          VALUES (${v.id}, ${v.phone}, ${v.purpose}, ${v.provider}, ${v.country}, ${v.language}, ${v.state_hash},
            ${v.pending_enc}, ${v.created_at}, ${v.expires_at}, ${v.price})`,
    ),

  /** The check's outcome, written by the return that claimed it. */
  writeOutcome: (q: Queryable, id: string, outcome: string, detail: string | null) =>
    all(q, sql`UPDATE network_verifications SET outcome = ${outcome}, detail = ${detail} WHERE id = ${id}`),

  byId: (q: Queryable, id: string) =>
    first<NetworkVerificationRow>(q, sql`SELECT * FROM network_verifications WHERE id = ${id}`),

  /** Per country (001: numbers with none), the checks started since `since` and how they ended. */
  byCountrySince: (q: Queryable, since: Date) =>
    all<NetworkCountryRow>(
      q,
      sql`SELECT coalesce(country, '001') AS country, count(*)::int AS tried,
            (count(*) FILTER (WHERE outcome = 'verified'))::int AS verified,
            (count(*) FILTER (WHERE outcome = 'other_number'))::int AS other_number,
            (count(*) FILTER (WHERE outcome IN ('unavailable', 'error')
              OR (outcome IS NULL AND used_at IS NOT NULL)))::int AS fell_back,
            sum(price)::float8 AS cost
          FROM network_verifications WHERE created_at >= ${since}
          GROUP BY 1 ORDER BY 2 DESC, 1`,
    ),

  /** The most recent checks, newest first, of one number where `phone` is given. */
  recent: (q: Queryable, limit: number, phone?: string) =>
    all<NetworkVerificationRow>(
      q,
      phone
        ? sql`SELECT * FROM network_verifications WHERE phone = ${phone} ORDER BY created_at DESC LIMIT ${limit}`
        : sql`SELECT * FROM network_verifications ORDER BY created_at DESC LIMIT ${limit}`,
    ),

  /** The checks started since `since` (a UTC day's), counted against the daily budget. */
  startedSince: async (q: Queryable, since: Date) =>
    (
      await first<{ n: number }>(
        q,
        sql`SELECT count(*)::int AS n FROM network_verifications WHERE created_at >= ${since}`,
      )
    )?.n ?? 0,
};
