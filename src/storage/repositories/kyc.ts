import type { Queryable } from '../db.ts';
import { all, first, one, sql } from '../sql.ts';

export type VerificationStatus = 'awaiting' | 'pending' | 'verified' | 'rejected';

export interface VerificationRow {
  id: string;
  user_id: string;
  url_expires_at: Date;
  url_used_at: Date | null;
  status: VerificationStatus;
  provider: string | null;
  country: string | null;
  birthday: string | null;
  document_kind: string | null;
  level: 'basic' | 'full' | null;
  documents: string[] | null;
  submitted_at: Date | null;
  decided_at: Date | null;
  reason: string | null;
  message: string | null;
  photos_removed_at: Date | null;
  created_at: Date;
}

export interface PhotoRow {
  id: string;
  verification_id: string;
  kind: 'document' | 'selfie';
  content_type: string;
  size: number;
  created_at: Date;
}

const COLUMNS = sql`id, user_id, url_expires_at, url_used_at, status, provider, country, birthday, document_kind, level,
  documents, submitted_at, decided_at, reason, message, photos_removed_at, created_at`;

/** The verification `v` belongs to a live account (read by key in a subquery). */
const OF_LIVE_ACCOUNT = sql`(SELECT u.deleted_at FROM users u WHERE u.id = v.user_id) IS NULL`;

export const kycRepo = {
  /** A new one-time URL; the user's earlier unused ones stop working (one live link at a time). */
  async open(q: Queryable, v: { id: string; userId: string; tokenHash: string; expiresAt: Date; now: Date }) {
    await all(
      q,
      sql`UPDATE kyc_verifications SET url_expires_at = ${v.now}
       WHERE user_id = ${v.userId} AND status = 'awaiting' AND url_used_at IS NULL AND url_expires_at > ${v.now}`,
    );
    return one<VerificationRow>(
      q,
      sql`INSERT INTO kyc_verifications (id, user_id, url_token_hash, url_expires_at, created_at)
       VALUES (${v.id}, ${v.userId}, ${v.tokenHash}, ${v.expiresAt}, ${v.now}) RETURNING ${COLUMNS}`,
    );
  },

  byToken: (q: Queryable, tokenHash: string) =>
    first<VerificationRow>(
      q,
      sql`SELECT ${COLUMNS} FROM kyc_verifications WHERE url_token_hash = ${tokenHash}`,
    ),

  find: (q: Queryable, id: string) =>
    first<VerificationRow>(q, sql`SELECT ${COLUMNS} FROM kyc_verifications WHERE id = ${id}`),

  /** The user's newest submitted verification (the one GET /kyc/status reports). */
  latestSubmitted: (q: Queryable, userId: string) =>
    first<VerificationRow>(
      q,
      sql`SELECT ${COLUMNS} FROM kyc_verifications WHERE user_id = ${userId} AND status <> 'awaiting'
       ORDER BY submitted_at DESC LIMIT 1`,
    ),

  /** The queue, oldest first: one status, or every submitted one (each through its own index). */
  list: (q: Queryable, status: VerificationStatus | undefined, limit: number) =>
    status === undefined
      ? all<VerificationRow>(
          q,
          sql`SELECT ${COLUMNS} FROM kyc_verifications v
           WHERE status <> 'awaiting' AND ${OF_LIVE_ACCOUNT} ORDER BY submitted_at, id LIMIT ${limit}`,
        )
      : all<VerificationRow>(
          q,
          sql`SELECT ${COLUMNS} FROM kyc_verifications v
           WHERE status = ${status} AND ${OF_LIVE_ACCOUNT} ORDER BY submitted_at, id LIMIT ${limit}`,
        ),

  /**
   * Uses the URL and records the submission, if the URL is unused and alive: the conditional update is the
   * race gate, so two posts of one page submit once.
   */
  submit: (
    q: Queryable,
    tokenHash: string,
    s: {
      country: string;
      birthday: string;
      documentKind: string;
      level: string;
      documents: string[];
      provider: string;
      now: Date;
    },
  ) =>
    first<VerificationRow>(
      q,
      sql`UPDATE kyc_verifications SET url_used_at = ${s.now}, status = 'pending', submitted_at = ${s.now}, country = ${s.country},
         birthday = ${s.birthday}, document_kind = ${s.documentKind}, level = ${s.level}, documents = ${s.documents}, provider = ${s.provider}
       WHERE url_token_hash = ${tokenHash} AND url_used_at IS NULL AND url_expires_at > ${s.now} AND status = 'awaiting'
       RETURNING ${COLUMNS}`,
    ),

  addPhoto: (
    q: Queryable,
    p: {
      id: string;
      verificationId: string;
      kind: string;
      contentType: string;
      size: number;
      dataEnc: string;
      now: Date;
    },
  ) =>
    all(
      q,
      sql`INSERT INTO kyc_photos (id, verification_id, kind, content_type, size, data_enc, created_at)
       VALUES (${p.id}, ${p.verificationId}, ${p.kind}, ${p.contentType}, ${p.size}, ${p.dataEnc}, ${p.now})`,
    ),

  photos: (q: Queryable, verificationId: string) =>
    all<PhotoRow>(
      q,
      sql`SELECT id, verification_id, kind, content_type, size, created_at FROM kyc_photos
       WHERE verification_id = ${verificationId} ORDER BY kind, created_at, id`,
    ),

  photoData: (q: Queryable, verificationId: string, photoId: string) =>
    first<{ content_type: string; data_enc: string }>(
      q,
      sql`SELECT p.content_type, p.data_enc FROM kyc_photos p JOIN kyc_verifications v ON v.id = p.verification_id
       WHERE p.verification_id = ${verificationId} AND p.id = ${photoId} AND ${OF_LIVE_ACCOUNT}`,
    ),

  /** Only a pending verification is decided; the condition is the race gate between two deciders. */
  decide: (
    q: Queryable,
    id: string,
    d: { status: 'verified' | 'rejected'; reason: string | null; message: string | null; now: Date },
  ) =>
    first<VerificationRow>(
      q,
      sql`UPDATE kyc_verifications SET status = ${d.status}, reason = ${d.reason}, message = ${d.message}, decided_at = ${d.now}
       WHERE id = ${id} AND status = 'pending' RETURNING ${COLUMNS}`,
    ),

  /** The retention setting: photos of verifications decided before `before` go; the decision stays. */
};
