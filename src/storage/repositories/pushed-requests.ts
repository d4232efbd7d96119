import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

export interface NewPushedRequest {
  reference_hash: string;
  client_id: string;
  parameters: Record<string, string>;
  created_at: Date;
  expires_at: Date;
}

export const pushedRequestsRepo = {
  insert: (q: Queryable, r: NewPushedRequest) =>
    all(
      q,
      sql`INSERT INTO pushed_authorization_requests (reference_hash, client_id, parameters, created_at, expires_at)
        VALUES (${r.reference_hash}, ${r.client_id}, ${JSON.stringify(r.parameters)}::jsonb, ${r.created_at}, ${r.expires_at})`,
    ),
};
