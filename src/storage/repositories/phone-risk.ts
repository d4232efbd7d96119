import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';
import type { UserRow } from './users.ts';

/** What is known of an account's number beside the account itself (migration 027). */
export interface PhoneProofRow {
  user_id: string;
  /** when the account last proved its number here; null: when it was created */
  proven_at: Date | null;
  /** when a check found the number given to a new subscriber */
  recycled_at: Date | null;
  /** an operator verified the owner: code steps go through until then */
  cleared_until: Date | null;
}

/** The proof's columns as a read of an account carries them. */
type ProofColumns = { proof_user_id: string | null } & Omit<PhoneProofRow, 'user_id'>;

export type CheckKind = 'sim_swap' | 'number_recycling';

export interface PhoneCheckRow {
  id: string;
  user_id: string;
  phone: string;
  provider: string;
  check_kind: CheckKind;
  outcome: string;
  detail: string | null;
  last_swap_at: Date | null;
  checked_at: Date;
}

export const phoneRiskRepo = {
  /**
   * The live account with this number, what is known of its number, and the number's newest known SIM swap
   * answer since `knownSince` (to reuse instead of a new lookup), in one read.
   */
  accountWithProof: async (q: Queryable, phone: string, knownSince: Date) => {
    const row = await first<
      UserRow & ProofColumns & { known_outcome: string | null; known_last_swap_at: Date | null }
    >(
      q,
      sql`SELECT u.*, p.user_id AS proof_user_id, p.proven_at, p.recycled_at, p.cleared_until,
              k.outcome AS known_outcome, k.last_swap_at AS known_last_swap_at
       FROM users u LEFT JOIN phone_proofs p ON p.user_id = u.id
       LEFT JOIN LATERAL (
         SELECT outcome, last_swap_at FROM phone_checks
         WHERE phone = u.phone AND check_kind = 'sim_swap' AND checked_at > ${knownSince} AND outcome <> 'unknown'
         ORDER BY checked_at DESC LIMIT 1
       ) k ON true
       WHERE u.phone = ${phone} AND u.deleted_at IS NULL`,
    );
    if (!row) return undefined;
    const {
      proof_user_id,
      proven_at,
      recycled_at,
      cleared_until,
      known_outcome,
      known_last_swap_at,
      ...account
    } = row;
    return {
      account,
      proof: proof_user_id ? { user_id: proof_user_id, proven_at, recycled_at, cleared_until } : undefined,
      knownSwap: known_outcome ? { outcome: known_outcome, last_swap_at: known_last_swap_at } : undefined,
    };
  },

  proofOf: (q: Queryable, userId: string) =>
    first<PhoneProofRow>(q, sql`SELECT * FROM phone_proofs WHERE user_id = ${userId}`),

  /** The account proved its number now: the recycling check counts from here, and its flag goes. */
  proven: async (q: Queryable, userId: string, at: Date) => {
    await all(
      q,
      sql`INSERT INTO phone_proofs (user_id, proven_at) VALUES (${userId}, ${at})
       ON CONFLICT (user_id) DO UPDATE SET proven_at = ${at}, recycled_at = NULL`,
    );
  },

  flagRecycled: async (q: Queryable, userId: string, at: Date) => {
    await all(
      q,
      sql`INSERT INTO phone_proofs (user_id, recycled_at) VALUES (${userId}, ${at})
       ON CONFLICT (user_id) DO UPDATE SET recycled_at = ${at}`,
    );
  },

  /** An operator's clearance until `until`; the flag goes with it. False when the account is not live. */
  clear: async (q: Queryable, userId: string, until: Date) =>
    (
      await all(
        q,
        sql`INSERT INTO phone_proofs (user_id, cleared_until)
         SELECT id, ${until} FROM users WHERE id = ${userId} AND deleted_at IS NULL
         ON CONFLICT (user_id) DO UPDATE SET cleared_until = ${until}, recycled_at = NULL
         RETURNING user_id`,
      )
    ).length > 0,

  record: async (q: Queryable, c: PhoneCheckRow) => {
    await all(
      q,
      sql`INSERT INTO phone_checks (id, user_id, phone, provider, check_kind, outcome, detail, last_swap_at, checked_at)
       VALUES (${c.id}, ${c.user_id}, ${c.phone}, ${c.provider}, ${c.check_kind}, ${c.outcome}, ${c.detail}, ${c.last_swap_at}, ${c.checked_at})`,
    );
  },

  /** The newest known answer (not unknown) for the number since `since`, to reuse instead of a new lookup. */
  knownSince: (q: Queryable, phone: string, kind: CheckKind, since: Date) =>
    first<PhoneCheckRow>(
      q,
      sql`SELECT * FROM phone_checks WHERE phone = ${phone} AND check_kind = ${kind} AND checked_at > ${since} AND outcome <> 'unknown'
       ORDER BY checked_at DESC LIMIT 1`,
    ),

  /** The account's latest checks, the newest first. */
  checksOf: (q: Queryable, userId: string, limit: number) =>
    all<PhoneCheckRow>(
      q,
      sql`SELECT * FROM phone_checks WHERE user_id = ${userId} ORDER BY checked_at DESC LIMIT ${limit}`,
    ),
};
