import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';
import { liveSession } from './sessions.ts';

/** An app the user allowed: the client, the consent, and the user's live sessions with it. */
export interface ConsentedApp {
  client_id: string;
  client_name: string;
  scope: string;
  granted_at: Date;
  active_sessions: number;
  last_used_at: Date | null;
}

export const consentsRepo = {
  find: async (q: Queryable, userId: string, clientId: string) =>
    (
      await first<{ scope: string }>(
        q,
        sql`SELECT scope FROM consents WHERE user_id = ${userId} AND client_id = ${clientId}`,
      )
    )?.scope,

  upsert: (q: Queryable, userId: string, clientId: string, scope: string, now: Date) =>
    all(
      q,
      sql`INSERT INTO consents (user_id, client_id, scope, granted_at) VALUES (${userId}, ${clientId}, ${scope}, ${now})
       ON CONFLICT (user_id, client_id) DO UPDATE SET scope = EXCLUDED.scope, granted_at = EXCLUDED.granted_at`,
    ),

  /** The live clients that ask consent and that this user allowed, the most recently allowed first. */
  listAppsOfUser: (q: Queryable, userId: string, now: Date) =>
    all<ConsentedApp>(
      q,
      sql`SELECT c.client_id, cl.client_name, c.scope, c.granted_at,
         count(s.id)::int AS active_sessions, max(s.last_used_at) AS last_used_at
       FROM consents c JOIN clients cl ON cl.client_id = c.client_id
         AND cl.deleted_at IS NULL AND NOT cl.first_party
       LEFT JOIN sessions s ON s.user_id = c.user_id AND s.client_id = c.client_id AND ${liveSession(now)}
       WHERE c.user_id = ${userId}
       GROUP BY c.client_id, cl.client_name, c.scope, c.granted_at
       ORDER BY c.granted_at DESC, c.client_id`,
    ),

  /**
   * Withdraws this user's consent to this client, unless it is first-party (it never asked). Waits for
   * the code exchanges that hold the consent (FOR SHARE) to commit, so that their sessions are there to end.
   */
  removeOfThirdParty: async (q: Queryable, userId: string, clientId: string) =>
    (
      await all(
        q,
        sql`DELETE FROM consents c USING clients cl
         WHERE c.user_id = ${userId} AND c.client_id = ${clientId} AND cl.client_id = c.client_id AND NOT cl.first_party
         RETURNING 1`,
      )
    ).length > 0,

  /** A deleted client's consents; they link people to an application that no longer exists. */
  removeAllOfClient: (q: Queryable, clientId: string) =>
    all(q, sql`DELETE FROM consents WHERE client_id = ${clientId}`),
};
