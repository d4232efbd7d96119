import { COUNTRY_CODES } from '../../i18n/countries.ts';
import { fieldError } from '../errors.ts';

/** Spec "Limits": the verification URL lives 1800 s. */
export const KYC_URL_LIFETIME_SECONDS = 1800;
/** Issue 7: each photo at most 10 MB (MiB, as D22 reads "MB" for avatars). */
export const KYC_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** Larger images are refused before anyone's browser has to decode them (decompression bombs). */
export const KYC_PHOTO_MAX_PIXELS = 60_000_000;
export const KYC_PHOTO_FORMATS = ['jpeg', 'png', 'webp'] as const;
/** A document's front and back. */
export const KYC_MAX_DOCUMENT_PHOTOS = 2;
export const KYC_MIN_AGE = 18;

/** The identity documents a verification may show. */
export const DOCUMENT_KINDS = ['passport', 'national_id', 'driving_licence', 'residence_permit'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const DOCUMENT_LABELS: Record<DocumentKind, string> = {
  passport: 'Passport',
  national_id: 'National identity card',
  driving_licence: 'Driving licence',
  residence_permit: 'Residence permit',
};

/** Why an operator may reject a verification. */
export const REJECTION_REASONS = [
  'document_unreadable',
  'document_expired',
  'data_mismatch',
  'underage',
  'suspected_fraud',
  'other',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** An account's identity verification, as its record says. */
export const KYC_STATUSES = ['none', 'pending', 'verified', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];
export type KycLevel = 'basic' | 'full';

/** A user may start a verification unless verified (FORBIDDEN) or already waiting for a decision. */
export function initiateRefusal(status: KycStatus): string | undefined {
  if (status === 'verified') return 'your identity is already verified';
  if (status === 'pending') return 'your submission is waiting for a decision';
  return undefined;
}

/** None -> pending and rejected -> pending are the only moves a submission makes. */
export const canSubmit = (status: KycStatus) => status === 'none' || status === 'rejected';

/** Level `full` is a document and a selfie, `basic` a document alone. */
export const levelOf = (hasSelfie: boolean): KycLevel => (hasSelfie ? 'full' : 'basic');

/** The kinds of document a decision checked (the spec's `documents`), D30's names. */
export const documentsOf = (kind: DocumentKind, hasSelfie: boolean): string[] =>
  hasSelfie ? [kind, 'selfie'] : [kind];

export interface SubmissionFields {
  country: string;
  birthday: string;
  documentKind: DocumentKind;
}

/** Whole years between a YYYY-MM-DD birthday and `today` (UTC). */
export function ageOn(birthday: string, today: Date): number {
  const [y, m, d] = birthday.split('-').map(Number);
  const age = today.getUTCFullYear() - y;
  const hadBirthday =
    today.getUTCMonth() + 1 > m || (today.getUTCMonth() + 1 === m && today.getUTCDate() >= d);
  return hadBirthday ? age : age - 1;
}

/** The page's fields; each error names its field, and being under 18 is refused here. */
export function parseSubmission(body: Record<string, unknown>, today: Date): SubmissionFields {
  const country = String(body.country ?? '').toUpperCase();
  if (!COUNTRY_CODES.includes(country))
    throw fieldError('INVALID_REQUEST', 'country', 'Choose your country.');
  const birthday = String(body.birthday ?? '');
  const date = new Date(`${birthday}T00:00:00Z`);
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(birthday) ||
    Number.isNaN(date.getTime()) ||
    date.toISOString().slice(0, 10) !== birthday
  )
    throw fieldError('INVALID_REQUEST', 'birthday', 'Enter your date of birth as YYYY-MM-DD.', {
      reason: 'format',
    });
  const age = ageOn(birthday, today);
  if (date > today || age > 130)
    throw fieldError('INVALID_REQUEST', 'birthday', 'Enter your real date of birth.', { reason: 'unreal' });
  if (age < KYC_MIN_AGE)
    throw fieldError(
      'INVALID_REQUEST',
      'birthday',
      'You must be at least 18 years old to verify your identity.',
      {
        underage: true,
      },
    );
  const documentKind = String(body.document_kind ?? '') as DocumentKind;
  if (!DOCUMENT_KINDS.includes(documentKind))
    throw fieldError('INVALID_REQUEST', 'document_kind', 'Choose the type of your document.');
  return { country, birthday, documentKind };
}

/** One or two photos of the document (front, back) and at most one selfie; each error says which. */
export function checkPhotoCounts(photos: readonly { kind: 'document' | 'selfie' }[]): void {
  const documents = photos.filter((p) => p.kind === 'document').length;
  const refuse = (field: string, message: string, reason: string) =>
    fieldError('INVALID_REQUEST', field, message, { reason });
  if (documents === 0) throw refuse('document', 'Add a photo of your document.', 'missing');
  if (documents > KYC_MAX_DOCUMENT_PHOTOS)
    throw refuse('document', 'Add at most two document photos: front and back.', 'too_many');
  if (photos.length - documents > 1) throw refuse('selfie', 'Add one selfie.', 'too_many');
}
