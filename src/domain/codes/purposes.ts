// What a one-time code is for.

/** The purposes /auth/otp/* takes (spec). */
export const OTP_PURPOSES = ['signup', 'pin_reset', 'signin'] as const;
export type PublicPurpose = (typeof OTP_PURPOSES)[number];
/** `phone_change` codes are asked for by a signed-in account on /users/me/phone, never on /auth/otp/*. */
export type OtpPurpose = PublicPurpose | 'phone_change';

/** The purposes whose code goes to a number that has an account (the others want a number nobody has). */
export type AccountPurpose = 'pin_reset' | 'signin';
export const forAnAccount = (purpose: OtpPurpose): purpose is AccountPurpose =>
  purpose === 'pin_reset' || purpose === 'signin';
