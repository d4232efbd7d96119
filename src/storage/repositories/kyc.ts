import { maybeOne, one, type Queryable } from '../db.ts';

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

const COLUMNS = `id, user_id, url_expires_at, url_used_at, status, provider, country, birthday, document_kind, level,
  documents, submitted_at, decided_at, reason, message, photos_removed_at, created_at`;

/** The verification `v` belongs to a live account (read by key in a subquery). */
const OF_LIVE_ACCOUNT = '(SELECT u.deleted_at FROM users u WHERE u.id = v.user_id) IS NULL';

export const kycRepo = {
  /** A new one-time URL; the user's earlier unused ones stop working (one live link at a time). */
  async open(q: Queryable, v: { id: string; userId: string; tokenHash: string; expiresAt: Date; now: Date }) {
    await q.query(
      `UPDATE kyc_verifications SET url_expires_at = $2
       WHERE user_id = $1 AND status = 'awaiting' AND url_used_at IS NULL AND url_expires_at > $2`,
      [v.userId, v.now],
    );
    return one<VerificationRow>(
      q,
      `INSERT INTO kyc_verifications (id, user_id, url_token_hash, url_expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [v.id, v.userId, v.tokenHash, v.expiresAt, v.now],
    );
  },

  byToken: (q: Queryable, tokenHash: string) =>
    maybeOne<VerificationRow>(q, `SELECT ${COLUMNS} FROM kyc_verifications WHERE url_token_hash = $1`, [
      tokenHash,
    ]),

  find: (q: Queryable, id: string) =>
    maybeOne<VerificationRow>(q, `SELECT ${COLUMNS} FROM kyc_verifications WHERE id = $1`, [id]),

  /** The user's newest submitted verification (the one GET /kyc/status reports). */
  latestSubmitted: (q: Queryable, userId: string) =>
    maybeOne<VerificationRow>(
      q,
      `SELECT ${COLUMNS} FROM kyc_verifications WHERE user_id = $1 AND status <> 'awaiting'
       ORDER BY submitted_at DESC LIMIT 1`,
      [userId],
    ),

  /** The queue, oldest first: one status, or every submitted one (each through its own index). */
  list: (q: Queryable, status: VerificationStatus | undefined, limit: number) =>
    status === undefined
      ? q.query<VerificationRow>(
          `SELECT ${COLUMNS} FROM kyc_verifications v
           WHERE status <> 'awaiting' AND ${OF_LIVE_ACCOUNT} ORDER BY submitted_at, id LIMIT $1`,
          [limit],
        )
      : q.query<VerificationRow>(
          `SELECT ${COLUMNS} FROM kyc_verifications v
           WHERE status = $1 AND ${OF_LIVE_ACCOUNT} ORDER BY submitted_at, id LIMIT $2`,
          [status, limit],
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
    maybeOne<VerificationRow>(
      q,
      `UPDATE kyc_verifications SET url_used_at = $2, status = 'pending', submitted_at = $2, country = $3,
         birthday = $4, document_kind = $5, level = $6, documents = $7, provider = $8
       WHERE url_token_hash = $1 AND url_used_at IS NULL AND url_expires_at > $2 AND status = 'awaiting'
       RETURNING ${COLUMNS}`,
      [tokenHash, s.now, s.country, s.birthday, s.documentKind, s.level, s.documents, s.provider],
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
    q.query(
      `INSERT INTO kyc_photos (id, verification_id, kind, content_type, size, data_enc, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [p.id, p.verificationId, p.kind, p.contentType, p.size, p.dataEnc, p.now],
    ),

  photos: (q: Queryable, verificationId: string) =>
    q.query<PhotoRow>(
      `SELECT id, verification_id, kind, content_type, size, created_at FROM kyc_photos
       WHERE verification_id = $1 ORDER BY kind, created_at, id`,
      [verificationId],
    ),

  photoData: (q: Queryable, verificationId: string, photoId: string) =>
    maybeOne<{ content_type: string; data_enc: string }>(
      q,
      `SELECT p.content_type, p.data_enc FROM kyc_photos p JOIN kyc_verifications v ON v.id = p.verification_id
       WHERE p.verification_id = $1 AND p.id = $2 AND ${OF_LIVE_ACCOUNT}`,
      [verificationId, photoId],
    ),

  /** Only a pending verification is decided; the condition is the race gate between two deciders. */
  decide: (
    q: Queryable,
    id: string,
    d: { status: 'verified' | 'rejected'; reason: string | null; message: string | null; now: Date },
  ) =>
    maybeOne<VerificationRow>(
      q,
      `UPDATE kyc_verifications SET status = $2, reason = $3, message = $4, decided_at = $5
       WHERE id = $1 AND status = 'pending' RETURNING ${COLUMNS}`,
      [id, d.status, d.reason, d.message, d.now],
    ),

  /** The retention setting: photos of verifications decided before `before` go; the decision stays. */
};
