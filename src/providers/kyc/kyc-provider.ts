import type { DocumentKind, KycLevel, RejectionReason } from '../../domain/kyc/kyc-rules.ts';

export type KycDecision =
  | { status: 'verified' }
  | { status: 'rejected'; reason: RejectionReason; message: string };

export interface KycSubmission {
  verificationId: string;
  country: string;
  birthday: string;
  documentKind: DocumentKind;
  level: KycLevel;
}

/** Where decisions come from. A provider that decides at once answers its decision; else undefined. */
export interface KycProvider {
  readonly name: 'manual' | 'sandbox';
  review(submission: KycSubmission): Promise<KycDecision | undefined>;
}

/** `manual`: an operator decides later, through the admin API or `callsign kyc`. */
export const manualKycProvider: KycProvider = {
  name: 'manual',
  review: async () => undefined,
};
