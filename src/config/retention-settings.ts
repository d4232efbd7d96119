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

/** Each retention's variable, its field, and its least value (days up to 36500; hours up to a year). */
export const RETENTION_VARIABLES: ReadonlyArray<
  readonly [variable: string, field: keyof Retention, least: number]
> = [
  ['KYC_RETENTION_DAYS', 'kycPhotosDays', 0],
  ['ADMIN_ACTIONS_RETENTION_DAYS', 'adminActionsDays', 1],
  ['EVENT_RETENTION_DAYS', 'eventsDays', 1],
  ['MESSAGE_RETENTION_DAYS', 'messagesDays', 1],
  ['PHONE_CHECK_RETENTION_DAYS', 'phoneChecksDays', 1],
  ['DISABLED_ENDPOINT_PENDING_HOURS', 'disabledEndpointPendingHours', 1],
  ['UNUSED_LOGO_RETENTION_DAYS', 'unusedLogosDays', 0],
  ['RETIRED_KEY_RETENTION_DAYS', 'retiredKeysDays', 0],
];

/** The retention of each table that grows with use, from the environment or the defaults. */
export const retentionSettings = (r: EnvReader): { retention: Retention } => {
  const retention = { ...DEFAULT_RETENTION };
  for (const [variable, field, least] of RETENTION_VARIABLES)
    retention[field] = variable.endsWith('_HOURS')
      ? r.integer(variable, retention[field], least, 8760, `a whole number of hours, ${least}-8760`)
      : (r.days(variable, least) ?? retention[field]);
  return { retention };
};
