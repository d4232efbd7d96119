import type { EnvReader } from './env-reader.ts';

/** KYC photos are deleted this many days after their decision (the decision stays), unless set otherwise. */
export const DEFAULT_KYC_RETENTION_DAYS = 30;
/** The operators' trail keeps a row this long (13 months: a year's audit and its follow-up), unless set otherwise. */
export const DEFAULT_ADMIN_ACTIONS_RETENTION_DAYS = 400;

/** How long what grows with use is kept: KYC_RETENTION_DAYS (0-36500) and ADMIN_ACTIONS_RETENTION_DAYS (1-36500). */
export const retentionSettings = (r: EnvReader) => ({
  kycRetentionDays: r.days('KYC_RETENTION_DAYS', 0) ?? DEFAULT_KYC_RETENTION_DAYS,
  adminActionsRetentionDays:
    r.days('ADMIN_ACTIONS_RETENTION_DAYS', 1) ?? DEFAULT_ADMIN_ACTIONS_RETENTION_DAYS,
});
