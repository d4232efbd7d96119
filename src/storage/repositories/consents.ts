import { maybeOne, type Queryable } from '../db.ts';

export const consentsRepo = {
  find: async (q: Queryable, userId: string, clientId: string) =>
    (
      await maybeOne<{ scope: string }>(
        q,
        'SELECT scope FROM consents WHERE user_id = $1 AND client_id = $2',
        [userId, clientId],
      )
    )?.scope,

  upsert: (q: Queryable, userId: string, clientId: string, scope: string, now: Date) =>
    q.query(
      `INSERT INTO consents (user_id, client_id, scope, granted_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (user_id, client_id) DO UPDATE SET scope = EXCLUDED.scope, granted_at = EXCLUDED.granted_at`,
      [userId, clientId, scope, now],
    ),
};
