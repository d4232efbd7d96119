import type { Queryable } from '../db.ts';
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
      where: `created_at < $1 AND NOT EXISTS (
        SELECT 1 FROM webhook_deliveries d WHERE d.event_id = outbox_events.id AND d.status = 'pending')`,
      params: [before],
    }),

  /** Pending deliveries of a disabled endpoint made before `before`: closed as failed, with the reason. */
  closeDeliveriesOfDisabled: (q: Queryable, before: Date, reason: string) =>
    updateInBatches(q, {
      table: 'webhook_deliveries',
      set: `status = 'failed', next_attempt_at = NULL, locked_until = NULL, last_error = $2`,
      where: `status = 'pending' AND created_at < $1
        AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE NOT enabled)`,
      params: [before, reason],
    }),

  /** Logos fetched before `before` that no client (not deleted) shows. */
  unusedLogos: (q: Queryable, before: Date) =>
    deleteInBatches(q, {
      table: 'logos',
      where: `created_at < $1 AND NOT EXISTS (
        SELECT 1 FROM clients c WHERE c.logo_image = logos.name AND c.deleted_at IS NULL)`,
      params: [before],
    }),

  /** Signing keys that left the published key set before `before` (the signing key is always published). */
  retiredKeys: (q: Queryable, before: Date) =>
    deleteInBatches(q, { table: 'signing_keys', where: 'published_until < $1', params: [before] }),

  /** Rows of `table` whose `column` is before `before`. */
  olderThan: (q: Queryable, table: string, column: string, before: Date) =>
    deleteInBatches(q, { table, where: `${column} < $1`, params: [before] }),

  /** A code kept sealed for a re-send is cleared once it expires; the message record stays. */
  sealedCodes: (q: Queryable, now: Date) =>
    updateInBatches(q, {
      table: 'messages',
      set: 'sealed_code = NULL',
      where: 'sealed_code IS NOT NULL AND code_expires_at < $1',
      params: [now],
    }),

  /** KYC links never used, a day past their end. */
  staleKycLinks: (q: Queryable, before: Date) =>
    deleteInBatches(q, {
      table: 'kyc_verifications',
      where: `status = 'awaiting' AND url_expires_at < $1`,
      params: [before],
    }),

  /** Photos of verifications decided before `before`; the decision stays, marked as without photos. */
  async kycPhotos(q: Queryable, before: Date, now: Date): Promise<number> {
    const verificationsPerBatch = Math.floor(PURGE_BATCH_ROWS / 10);
    let photos = 0;
    for (;;) {
      const [row] = await q.query<{ verifications: number; photos: number }>(
        `WITH old AS (
           UPDATE kyc_verifications SET photos_removed_at = $2
           WHERE id IN (SELECT id FROM kyc_verifications
                        WHERE decided_at < $1 AND photos_removed_at IS NULL AND decided_at IS NOT NULL
                        LIMIT ${verificationsPerBatch} FOR UPDATE SKIP LOCKED)
           RETURNING id),
         gone AS (DELETE FROM kyc_photos WHERE verification_id IN (SELECT id FROM old) RETURNING 1)
         SELECT (SELECT count(*) FROM old)::int AS verifications, (SELECT count(*) FROM gone)::int AS photos`,
        [before, now],
      );
      photos += row.photos;
      if (row.verifications < verificationsPerBatch) return photos;
    }
  },
};
