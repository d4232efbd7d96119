// Rolling a confidential client's secret.
//
// Rules it enforces:
// - Only a live client with a secret gets a new one; a public client (none) has none to roll.
// - The new secret's hash replaces the old one in the same statement that keeps the old one for the grace:
//   with no grace the old secret stops at once; with one it works until `graceUntil` and not after.
// - A roll during another's grace ends that grace: only the secret just replaced is kept, so at most two
//   secrets ever work.
import type { Queryable } from '../db.ts';
import type { ClientRow } from '../repositories/clients.ts';
import { first, sql } from '../sql.ts';

export function rollClientSecret(
  q: Queryable,
  clientId: string,
  newSecretHash: string,
  graceUntil: Date | null,
): Promise<ClientRow | undefined> {
  return first<ClientRow>(
    q,
    sql`UPDATE clients SET
          previous_secret_hash = CASE WHEN ${graceUntil}::timestamptz IS NULL THEN NULL ELSE client_secret_hash END,
          previous_secret_expires_at = ${graceUntil}::timestamptz,
          client_secret_hash = ${newSecretHash}
        WHERE client_id = ${clientId} AND deleted_at IS NULL AND client_secret_hash IS NOT NULL
        RETURNING *`,
  );
}
