import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';
import { deleteInBatches, PURGE_BATCH_ROWS, updateInBatches } from './batched-purge.ts';

/**
 * The statements of each retention, batched (batched-purge.ts). Every cutoff is a moment: rows older go.
 * An event goes only once no delivery still waits for it; a delivery waiting for a disabled endpoint is
 * closed as failed after a while, so the events of an endpoint left disabled age out too. A deleted endpoint
 * takes its deliveries with it.
 */
export const retentionPurges = {
  events: (q: Queryable, before: Date) =>
    deleteInBatches(q, {
      table: 'outbox_events',
      where: sql`created_at < ${before} AND NOT EXISTS (
        SELECT 1 FROM webhook_deliveries d WHERE d.event_id = outbox_events.id AND d.status = 'pending')`,
    }),

  /** Pending deliveries of a disabled endpoint made before `before`: closed as failed, with the reason. */
  closeDeliveriesOfDisabled: (q: Queryable, before: Date, reason: string) =>
    updateInBatches(q, {
      table: 'webhook_deliveries',
      set: sql`status = 'failed', next_attempt_at = NULL, locked_until = NULL, last_error = ${reason}`,
      where: sql`status = 'pending' AND created_at < ${before}
        AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE NOT enabled)`,
    }),

  /** Logos fetched before `before` that no client (not deleted) shows. */
  unusedLogos: (q: Queryable, before: Date) =>
    deleteInBatches(q, {
      table: 'logos',
      where: sql`created_at < ${before} AND NOT EXISTS (
        SELECT 1 FROM clients c WHERE c.logo_image = logos.name AND c.deleted_at IS NULL)`,
    }),

  /** Signing keys that left the published key set before `before` (the signing key is always published). */
  retiredKeys: (q: Queryable, before: Date) =>
    deleteInBatches(q, { table: 'signing_keys', where: sql`published_until < ${before}` }),

  /** Rows of `table` whose `column` is before `before`. */
  olderThan: (q: Queryable, table: string, column: string, before: Date) =>
    deleteInBatches(q, { table, where: sql`${sql.identifier(column)} < ${before}` }),

  /** A code kept sealed for a re-send is cleared once it expires; the message record stays. */
  sealedCodes: (q: Queryable, now: Date) =>
    updateInBatches(q, {
      table: 'messages',
      set: sql`sealed_code = NULL`,
      where: sql`sealed_code IS NOT NULL AND code_expires_at < ${now}`,
    }),

  /** KYC links never used, a day past their end. */
  staleKycLinks: (q: Queryable, before: Date) =>
    deleteInBatches(q, {
      table: 'kyc_verifications',
      where: sql`status = 'awaiting' AND url_expires_at < ${before}`,
    }),

  /** Photos of verifications decided before `before`; the decision stays, marked as without photos. */
  async kycPhotos(q: Queryable, before: Date, now: Date): Promise<number> {
    const verificationsPerBatch = Math.floor(PURGE_BATCH_ROWS / 10);
    let photos = 0;
    for (;;) {
      const [row] = await all<{ verifications: number; photos: number }>(
        q,
        sql`WITH old AS (
           UPDATE kyc_verifications SET photos_removed_at = ${now}
           WHERE id IN (SELECT id FROM kyc_verifications
                        WHERE decided_at < ${before} AND photos_removed_at IS NULL AND decided_at IS NOT NULL
                        LIMIT ${verificationsPerBatch} FOR UPDATE SKIP LOCKED)
           RETURNING id),
         gone AS (DELETE FROM kyc_photos WHERE verification_id IN (SELECT id FROM old) RETURNING 1)
         SELECT (SELECT count(*) FROM old)::int AS verifications, (SELECT count(*) FROM gone)::int AS photos`,
      );
      photos += row.photos;
      if (row.verifications < verificationsPerBatch) return photos;
    }
  },
};
