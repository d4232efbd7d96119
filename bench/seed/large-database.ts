import type { Queryable } from '../../src/storage/db.ts';
import { ACCOUNT_STATEMENTS } from './accounts.ts';
import { ACTIVITY_STATEMENTS } from './activity.ts';

/** The client and webhook endpoint the seeded rows name. The endpoint is disabled: nothing new goes to it. */
export const SEED_CLIENT_ID = 'seed-client';
export const SEED_ENDPOINT_ID = '5eed0000-0000-4000-8000-000000000001';

export interface SeedPlan {
  accounts: number;
  now: Date;
  /** real PIN hashes, made by the service's hasher; account n gets hash n mod their number */
  pinHashes: string[];
  /** accounts per round of statements */
  chunk?: number;
  onProgress?: (seeded: number) => void;
}

/** A statement's parameters as it numbers them: the values of the `$n` it names, renumbered from $1. */
function bind(sql: string, values: unknown[]): [string, unknown[]] {
  const used = [...new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  const renumbered = sql.replace(/\$(\d+)/g, (_, n) => `$${used.indexOf(Number(n)) + 1}`);
  return [renumbered, used.map((n) => values[n - 1])];
}

/**
 * Fills an empty, migrated database with `accounts` accounts and what they hold at steady state (every table
 * that grows with use, in proportion), a chunk of accounts at a time, through set-based SQL that the schema's
 * constraints check as for any row; then vacuums and analyses it.
 */
export async function seedLargeDatabase(db: Queryable, plan: SeedPlan): Promise<void> {
  const { now } = plan;
  await db.query(
    `INSERT INTO clients (client_id, client_name, redirect_uris, grant_types, scope, token_endpoint_auth_method, created_at)
     VALUES ($1, 'Seeded app', '["https://app.example/callback"]', '["authorization_code","refresh_token"]',
             'openid profile phone', 'none', $2)`,
    [SEED_CLIENT_ID, now],
  );
  await db.query(
    `INSERT INTO webhook_endpoints (id, url, enabled, secret_enc, created_at, updated_at)
     VALUES ($1, 'https://hooks.example/seed', false, 'seeded', $2, $2)`,
    [SEED_ENDPOINT_ID, now],
  );
  const chunk = plan.chunk ?? 50_000;
  for (let first = 1; first <= plan.accounts; first += chunk) {
    const last = Math.min(plan.accounts, first + chunk - 1);
    const values = [first, last, now, plan.pinHashes, SEED_CLIENT_ID, SEED_ENDPOINT_ID];
    for (const statement of [...ACCOUNT_STATEMENTS, ...ACTIVITY_STATEMENTS])
      await db.query(...bind(statement, values));
    plan.onProgress?.(last);
  }
  // Vacuumed as well as analysed: a steady-state table is, and autovacuum would otherwise do it during the runs.
  await db.exec('VACUUM (ANALYZE)');
}

/** The phone number of seeded account `n` (what a benchmark signs in with). */
export const seededPhone = (n: number) => `+919${String(n).padStart(9, '0')}`;
