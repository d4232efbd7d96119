import type { EnvReader } from './env-reader.ts';

/** How long each table that grows with use keeps its rows; every value has a setting of the same name. */
export interface Retention {
  /** KYC_RETENTION_DAYS: days after a decision that its photos are kept (the decision stays) */
  kycPhotosDays: number;
  /** ADMIN_ACTIONS_RETENTION_DAYS: days the operators' trail keeps a row */
  adminActionsDays: number;
  /** EVENT_RETENTION_DAYS: days an event and its delivery log are kept, for replays (they hold phone numbers) */
  eventsDays: number;
  /** MESSAGE_RETENTION_DAYS: days a message to a phone is kept for the operators */
  messagesDays: number;
  /** PHONE_CHECK_RETENTION_DAYS: days a SIM check's answer is kept for the operators */
  phoneChecksDays: number;
  /** DISABLED_ENDPOINT_PENDING_HOURS: hours a delivery waits for its disabled endpoint before it is closed failed */
  disabledEndpointPendingHours: number;
  /** UNUSED_LOGO_RETENTION_DAYS: days a logo no client shows any more is kept */
  unusedLogosDays: number;
  /** RETIRED_KEY_RETENTION_DAYS: days a signing key is kept after it left the published key set */
  retiredKeysDays: number;
}

/** The defaults a production operator would pick; docs/operations.md lists them. */
export const DEFAULT_RETENTION: Retention = {
  // 30 days: long enough for a dispute over a decision, short for a photo of a person's identity document.
  kycPhotosDays: 30,
  // 13 months: a year's audit and its follow-up.
  adminActionsDays: 400,
  eventsDays: 30,
  messagesDays: 30,
  phoneChecksDays: 90,
  // Three days cover a weekend's outage of the receiver; then its events may age out.
  disabledEndpointPendingHours: 72,
  unusedLogosDays: 7,
  // Tokens signed by a key are over when it leaves the key set; a day more for clocks and caches.
  retiredKeysDays: 1,
};

/** The retention of each table that grows with use, from the environment or the defaults. */
export const retentionSettings = (r: EnvReader): { retention: Retention } => {
  const d = DEFAULT_RETENTION;
  return {
    retention: {
      kycPhotosDays: r.days('KYC_RETENTION_DAYS', 0) ?? d.kycPhotosDays,
      adminActionsDays: r.days('ADMIN_ACTIONS_RETENTION_DAYS', 1) ?? d.adminActionsDays,
      eventsDays: r.days('EVENT_RETENTION_DAYS', 1) ?? d.eventsDays,
      messagesDays: r.days('MESSAGE_RETENTION_DAYS', 1) ?? d.messagesDays,
      phoneChecksDays: r.days('PHONE_CHECK_RETENTION_DAYS', 1) ?? d.phoneChecksDays,
      disabledEndpointPendingHours: r.integer(
        'DISABLED_ENDPOINT_PENDING_HOURS',
        d.disabledEndpointPendingHours,
        1,
        8760,
        'a whole number of hours, 1-8760',
      ),
      unusedLogosDays: r.days('UNUSED_LOGO_RETENTION_DAYS', 0) ?? d.unusedLogosDays,
      retiredKeysDays: r.days('RETIRED_KEY_RETENTION_DAYS', 0) ?? d.retiredKeysDays,
    },
  };
};
