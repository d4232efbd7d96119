// How a sign-in proved who the person is, as sessions keep it and tokens tell relying parties: RFC 8176's
// authentication method references (`amr`) and an authentication context class (`acr`).
//
// Rules it enforces:
// - A PIN is `["pwd"]`; a code by SMS `["otp", "sms"]`, by voice `["otp", "tel"]`, by WhatsApp `["otp"]`; a
//   number proven by its mobile network `["mnv"]`; a recovery code `["otp"]`; a passkey `["hwk", "user",
//   "mfa"]` when bound to one device, `["swk", "user", "mfa"]` when synced (user verification is required,
//   so two factors).
// - `acr` is `urn:callsign:acr:phr` (phishing-resistant, multi-factor) for a passkey's sign-in, and
//   `urn:callsign:acr:1fa` (one factor) for any other.
// - A refresh keeps the session's `auth_time`, `amr` and `acr`: only a new sign-in changes them.
// - A session opened before methods were recorded counts as a PIN's.
import type { Channel } from '../../providers/messaging/provider.ts';

export const ACR_ONE_FACTOR = 'urn:callsign:acr:1fa';
export const ACR_PHISHING_RESISTANT = 'urn:callsign:acr:phr';
export const ACR_VALUES = [ACR_ONE_FACTOR, ACR_PHISHING_RESISTANT] as const;

const CODE_AMR: Record<Channel, string[]> = { sms: ['otp', 'sms'], voice: ['otp', 'tel'], whatsapp: ['otp'] };

export const AMR = {
  pin: ['pwd'],
  recoveryCode: ['otp'],
  /** a code to the phone, by the channel that carried it (unknown: a configured test number's) */
  code: (channel: Channel | undefined) => (channel ? CODE_AMR[channel] : ['otp']),
  /** the phone proven silently by its mobile network (RFC 8176 has no value for it) */
  network: ['mnv'],
  passkey: (deviceType: 'single_device' | 'multi_device') => [
    deviceType === 'single_device' ? 'hwk' : 'swk',
    'user',
    'mfa',
  ],
};

/** When and how the person proved who they are, as a session keeps it. */
export interface Authentication {
  time: Date;
  amr: string[];
}

/** The authentication context class the methods reach. */
export const acrOf = (amr: readonly string[]) =>
  amr.includes('hwk') || amr.includes('swk') ? ACR_PHISHING_RESISTANT : ACR_ONE_FACTOR;

/** A session's methods as recorded, a PIN's where none were. */
export const recordedAmr = (amr: string[] | null | undefined) => (amr?.length ? amr : AMR.pin);

/** What the security signals know of a sign-in beyond its webhook payload: the class it reached. */
export const signInFacts = (s: { amr?: string[] | null }) => ({ acr: acrOf(recordedAmr(s.amr)) });

/** A session's sign-in as its row keeps it. */
export const authOfSession = (s: { auth_time: Date; amr: string[] | null }): Authentication => ({
  time: s.auth_time,
  amr: recordedAmr(s.amr),
});

/** The claims every token of the session carries: `auth_time` (seconds), `amr` and `acr`. */
export const authenticationClaims = (auth: Authentication) => {
  const amr = recordedAmr(auth.amr);
  return { auth_time: Math.floor(auth.time.getTime() / 1000), amr, acr: acrOf(amr) };
};
