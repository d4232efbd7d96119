import type { RejectionReason } from '../../domain/kyc/kyc-rules.ts';
import type { KycDecision, KycProvider } from './kyc-provider.ts';

/**
 * D31 `sandbox` (refused in production): decides at once, by the day of the month of the date of birth,
 * so integrators can reach every outcome from their tests (docs/kyc.md).
 */
const BY_DAY: Record<number, [RejectionReason, string]> = {
  1: ['document_unreadable', 'The document photo could not be read.'],
  2: ['document_expired', 'The document has expired.'],
  3: ['data_mismatch', 'The details entered do not match the document.'],
  4: ['suspected_fraud', 'The submission could not be accepted.'],
  5: ['other', 'The submission was rejected.'],
};

export const sandboxKycProvider: KycProvider = {
  name: 'sandbox',
  async review({ birthday }): Promise<KycDecision> {
    const rejection = BY_DAY[Number(birthday.slice(8, 10))];
    return rejection
      ? { status: 'rejected', reason: rejection[0], message: rejection[1] }
      : { status: 'verified' };
  },
};
