// The operators room: what the people who run Callsign use. It owns the operators' trail (admin actions),
// the admin view of users, the console's sign-in sessions, the overview's counts, and re-sealing secrets after
// a key-encryption key changes.
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { type AdminActionRow, adminActionsRepo } from '../../storage/repositories/admin-actions.ts';
import { fieldError } from '../errors.ts';
import { wholeNumberParam } from '../paging.ts';

/**
 * The reads that show a person's identity (a search of accounts, an account, a KYC verification's data, a
 * document photo) are kept like the changes, a search with what was searched for; the other lists and the
 * overview are not (the console reads them on every page).
 */
const IDENTITY_READS = new Set([
  '/admin/v1/users',
  '/admin/v1/users/:id',
  '/admin/v1/kyc/verifications/:id',
  '/admin/v1/kyc/verifications/:id/photos/:photo',
]);

/** Which answered admin requests are kept: every change (any method but GET and HEAD), and IDENTITY_READS. */
export const isKeptAdminAction = (method: string, route: string) =>
  (method !== 'GET' && method !== 'HEAD') || IDENTITY_READS.has(route);

export type AdminAction = Omit<AdminActionRow, 'id' | 'at'>;

/** Rows read at a time by the trail's export. */
const EXPORT_BATCH = 1000;

const storable = (text: string) => text.replaceAll('\u0000', '\\u0000').toWellFormed();

/** The operators' trail: what was done through the admin API and the console. */
export class AdminActionLog {
  constructor(private readonly d: { db: Database; clock: Clock }) {}

  /**
   * Every kept action is stored, a refused one too: what the operator sent is written with U+0000 shown
   * as the text \u0000 and a lone surrogate as U+FFFD, which the database (text, jsonb) can hold.
   */
  record(a: AdminAction): Promise<unknown> {
    const params = Object.fromEntries(Object.entries(a.params).map(([k, v]) => [storable(k), storable(v)]));
    return adminActionsRepo.insert(this.d.db, {
      ...a,
      route: storable(a.route),
      request_id: storable(a.request_id),
      params,
      at: this.d.clock.now(),
    });
  }

  /** The whole trail, oldest first, read a batch at a time so its size never sits in memory. */
  async *all(): AsyncGenerator<AdminActionRow> {
    for (let after = 0; ; ) {
      const batch = await adminActionsRepo.after(this.d.db, after, EXPORT_BATCH);
      yield* batch;
      if (batch.length < EXPORT_BATCH) return;
      after = Number(batch[batch.length - 1].id);
    }
  }

  list(query: { before?: unknown; limit?: unknown }): Promise<AdminActionRow[]> {
    const limit = wholeNumberParam(query.limit, 1, 200, 50);
    if (limit === undefined) throw fieldError('INVALID_REQUEST', 'limit', 'limit must be 1-200');
    const before = query.before === undefined ? undefined : wholeNumberParam(query.before, 1, 999_999_999, 1);
    if (query.before !== undefined && before === undefined)
      throw fieldError('INVALID_REQUEST', 'before', 'before must be the id of an action');
    return adminActionsRepo.list(this.d.db, { before, limit });
  }
}
