// What a one-time code is for.

/** The purposes /auth/otp/* takes (spec). */
export const OTP_PURPOSES = ['signup', 'pin_reset'] as const;
export type PublicPurpose = (typeof OTP_PURPOSES)[number];
/** `phone_change` codes are asked for by a signed-in account on /users/me/phone, never on /auth/otp/*. */
export type OtpPurpose = PublicPurpose | 'phone_change';
