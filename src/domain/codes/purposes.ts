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

/**
 * What a code request sends. Sign-up and a phone change want a number nobody has; a PIN reset and a sign-in by
 * code one that has an account. Where the number is not as wanted: without enumeration protection the answer
 * says why (`refusal`); with it, the answer is the same success, a decoy is stored that verifications refuse as
 * they would a real code, and the owner of a taken number is told (`notice`). A code for an account under
 * enumeration protection is sent after the answer (`code_after_answer`), since an unknown number gets nothing.
 */
export type WhatGoes = 'refusal' | 'decoy' | 'notice' | 'code' | 'code_after_answer';

export function whatGoes(purpose: OtpPurpose, registered: boolean, enumerationProtection: boolean): WhatGoes {
  const accountWanted = forAnAccount(purpose);
  const codeless = accountWanted ? !registered : registered;
  if (codeless && !enumerationProtection) return 'refusal';
  if (codeless) return accountWanted ? 'decoy' : 'notice';
  return accountWanted && enumerationProtection ? 'code_after_answer' : 'code';
}
