// The KYC room: identity verification. It owns the verification link and page's submissions, documents and
// photos, the provider's decision or an operator's, and the countries a document may come from.
import type { Metadata } from 'sharp';
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { KycDecision, KycProvider } from '../../providers/kyc/kyc-provider.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import { kycRepo, type VerificationRow, type VerificationStatus } from '../../storage/repositories/kyc.ts';
import { usersRepo } from '../../storage/repositories/users.ts';
import { sha256 } from '../crypto.ts';
import { DomainError, fieldError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { imageLibrary } from '../profiles/image-library.ts';
import type { PurposeKeys } from '../purpose-keys.ts';
import { type Events, payloads } from '../webhooks/events.ts';
import {
  canSubmit,
  checkPhotoCounts,
  documentsOf,
  initiateRefusal,
  KYC_PHOTO_FORMATS,
  KYC_PHOTO_MAX_BYTES,
  KYC_PHOTO_MAX_PIXELS,
  KYC_URL_LIFETIME_SECONDS,
  type KycStatus,
  levelOf,
  parseSubmission,
  REJECTION_REASONS,
  type RejectionReason,
} from './kyc-rules.ts';

export interface KycDeps {
  db: Database;
  clock: Clock;
  random: Random;
  events: Events;
  provider: KycProvider;
  verifyUrl: string;
  /** encrypts the photos at rest */
  photoKeys: PurposeKeys;
}

export interface Photo {
  kind: 'document' | 'selfie';
  data: Buffer;
}

/** Why a verification link can't be used, for the page to say so plainly. */
export type LinkProblem = 'unknown' | 'expired' | 'used';

const notFound = () => new DomainError('NOT_FOUND', 'no such verification');
const noLongerNeeded = () => new DomainError('FORBIDDEN', 'This verification is no longer needed.');

/** Identity verification, from the one-time link to the decision. */
export class KycService {
  constructor(private readonly d: KycDeps) {}

  /** POST /kyc/initiate: a one-time URL on VERIFY_URL, valid 1800 s. */
  async initiate(userId: string): Promise<{ verification_url: string; expires_in: number }> {
    const user = await usersRepo.findLiveById(this.d.db, userId);
    if (!user) throw new DomainError('INVALID_TOKEN', 'the account no longer exists');
    const refusal = initiateRefusal(user.kyc_status as KycStatus);
    if (refusal) throw new DomainError('FORBIDDEN', refusal);
    const token = this.d.random.token(32);
    const now = this.d.clock.now();
    await this.d.db.transaction((tx) =>
      kycRepo.open(tx, {
        id: this.d.random.uuid(),
        userId,
        tokenHash: sha256(token),
        expiresAt: addSeconds(now, KYC_URL_LIFETIME_SECONDS),
        now,
      }),
    );
    return { verification_url: `${this.d.verifyUrl}/verify/${token}`, expires_in: KYC_URL_LIFETIME_SECONDS };
  }

  /** GET /kyc/status: the spec's KYC status record. */
  async status(userId: string) {
    const user = await usersRepo.findLiveById(this.d.db, userId);
    if (!user) throw new DomainError('INVALID_TOKEN', 'the account no longer exists');
    const latest = await kycRepo.latestSubmitted(this.d.db, userId);
    return {
      status: user.kyc_status,
      verified_at: user.kyc_verified_at,
      level: latest?.level ?? null,
      documents: latest?.status === 'verified' ? (latest.documents ?? []) : [],
    };
  }

  /** A link that can still be used, with its account's language for the page; else why it cannot. */
  async openLink(
    token: string,
  ): Promise<{ verification: VerificationRow; language: string | null } | { problem: LinkProblem }> {
    const v = await kycRepo.byToken(this.d.db, sha256(token));
    if (!v) return { problem: 'unknown' };
    if (v.url_used_at) return { problem: 'used' };
    if (v.url_expires_at <= this.d.clock.now()) return { problem: 'expired' };
    const user = await usersRepo.findLiveById(this.d.db, v.user_id);
    if (!user || !canSubmit(user.kyc_status as KycStatus)) return { problem: 'used' };
    return { verification: v, language: user.language };
  }

  /**
   * The page's submission: fields and photos checked (nothing is stored when one is wrong, and the link
   * stays usable), then in one transaction the link is used, the photos stored encrypted, the status moves
   * to pending and kyc.submitted is written. A provider that decides at once decides right after.
   */
  async submit(token: string, body: Record<string, unknown>, photos: Photo[]): Promise<VerificationRow> {
    const now = this.d.clock.now();
    const fields = parseSubmission(body, now);
    checkPhotoCounts(photos);
    const selfies = photos.filter((p) => p.kind === 'selfie');
    const checked = await Promise.all(
      photos.map(async (p) => ({ ...p, contentType: await this.#checkPhoto(p) })),
    );

    const submitted = await this.d.db.transaction(async (tx) => {
      const v = await kycRepo.submit(tx, sha256(token), {
        ...fields,
        level: levelOf(selfies.length > 0),
        documents: documentsOf(fields.documentKind, selfies.length > 0),
        provider: this.d.provider.name,
        now,
      });
      if (!v) throw new DomainError('NOT_FOUND', 'This verification link has expired or was used already.');
      const user = await usersRepo.findLiveById(tx, v.user_id);
      if (!user || !canSubmit(user.kyc_status as KycStatus)) throw noLongerNeeded();
      for (const p of checked)
        await kycRepo.addPhoto(tx, {
          id: this.d.random.uuid(),
          verificationId: v.id,
          kind: p.kind,
          contentType: p.contentType,
          size: p.data.length,
          dataEnc: this.d.photoKeys.seal(p.data),
          now,
        });
      if (!(await usersRepo.setKyc(tx, v.user_id, { status: 'pending' }, now))) throw noLongerNeeded();
      await this.d.events.emit(tx, 'kyc.submitted', payloads.kycSubmitted(v));
      return v;
    });
    const decision = await this.d.provider.review({
      verificationId: submitted.id,
      country: fields.country,
      birthday: fields.birthday,
      documentKind: fields.documentKind,
      level: levelOf(selfies.length > 0),
    });
    return decision ? this.decide(submitted.id, decision) : submitted;
  }

  /** Pending -> verified or rejected, with the user's fields and the event in one transaction. */
  async decide(id: string, decision: KycDecision): Promise<VerificationRow> {
    if (!isUuid(id)) throw notFound();
    if (decision.status === 'rejected' && !REJECTION_REASONS.includes(decision.reason))
      throw fieldError('INVALID_REQUEST', 'reason', `reason must be one of ${REJECTION_REASONS.join(', ')}`);
    const now = this.d.clock.now();
    return this.d.db.transaction(async (tx) => {
      const v = await kycRepo.decide(tx, id, {
        status: decision.status,
        reason: decision.status === 'rejected' ? decision.reason : null,
        message: decision.status === 'rejected' ? decision.message : null,
        now,
      });
      if (!v) {
        const existing = await kycRepo.find(tx, id);
        if (!existing) throw notFound();
        throw new DomainError(
          'INVALID_REQUEST',
          `only a pending verification is decided; this one is ${existing.status}`,
        );
      }
      const verified = v.status === 'verified';
      const user = await usersRepo.setKyc(
        tx,
        v.user_id,
        verified
          ? {
              status: 'verified',
              country: v.country as string,
              birthday: v.birthday as string,
              verifiedAt: now,
            }
          : { status: 'rejected' },
        now,
      );
      // A deleted account's verification is not decided (throwing undoes the decision above).
      if (!user) throw notFound();
      if (verified) await this.d.events.emit(tx, 'kyc.verified', payloads.kycVerified(v));
      else await this.d.events.emit(tx, 'kyc.rejected', payloads.kycRejected(v));
      return v;
    });
  }

  /** An operator's rejection: a reason of D31 and a message for the user (a default one if none). */
  reject(id: string, reason: RejectionReason, message: string | undefined): Promise<VerificationRow> {
    if (message !== undefined && message.length > 500)
      throw fieldError('INVALID_REQUEST', 'message', 'message must be a string of at most 500 characters');
    return this.decide(id, {
      status: 'rejected',
      reason,
      message: message?.trim() || 'Your identity could not be verified.',
    });
  }

  list(status: string | undefined, limit = 100) {
    const allowed: VerificationStatus[] = ['pending', 'verified', 'rejected'];
    if (status !== undefined && !allowed.includes(status as VerificationStatus))
      throw fieldError('INVALID_REQUEST', 'status', 'status must be pending, verified or rejected');
    return kycRepo.list(this.d.db, status as VerificationStatus | undefined, limit);
  }

  /** What an operator reviews: the submission, its photos, and whose it is. */
  async review(id: string) {
    const v = isUuid(id) ? await kycRepo.find(this.d.db, id) : undefined;
    if (!v || v.status === 'awaiting') throw notFound();
    const [photos, user] = await Promise.all([
      kycRepo.photos(this.d.db, id),
      usersRepo.findLiveById(this.d.db, v.user_id),
    ]);
    if (!user) throw notFound(); // A deleted account's documents are not shown
    return { verification: v, photos, user };
  }

  async photo(id: string, photoId: string): Promise<{ contentType: string; data: Buffer }> {
    const row = isUuid(id) && isUuid(photoId) ? await kycRepo.photoData(this.d.db, id, photoId) : undefined;
    if (!row) throw new DomainError('NOT_FOUND', 'no such photo');
    return { contentType: row.content_type, data: this.d.photoKeys.open(row.data_enc) };
  }

  /** Recognised by content (a name or a declared type proves nothing): JPEG, PNG or WebP, 10 MB at most. */
  async #checkPhoto(p: Photo): Promise<string> {
    const bad = (why: string, reason: string) => fieldError('INVALID_REQUEST', p.kind, why, { reason });
    if (p.data.length > KYC_PHOTO_MAX_BYTES) throw bad('Each photo must be at most 10 MB.', 'too_large');
    const sharp = await imageLibrary(); // loaded with the first image, not at start
    let meta: Metadata;
    try {
      meta = await sharp(p.data, { limitInputPixels: false }).metadata();
    } catch {
      throw bad('Photos must be JPEG, PNG or WebP images.', 'type');
    }
    if (!meta.format || !(KYC_PHOTO_FORMATS as readonly string[]).includes(meta.format))
      throw bad('Photos must be JPEG, PNG or WebP images.', 'type');
    if ((meta.width ?? 0) * (meta.height ?? 0) > KYC_PHOTO_MAX_PIXELS)
      throw bad('This photo has too many pixels (60 megapixels at most).', 'pixels');
    return `image/${meta.format}`;
  }
}
