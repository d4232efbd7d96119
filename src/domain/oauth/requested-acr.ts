// What a client asks the sign-in to reach with `acr_values` (OIDC Core §3.1.2.1), and whether it was reached.
//
// Rules it enforces:
// - The first value of acr_values that this service knows decides; values it does not know are passed over,
//   since acr_values is a request the service meets where it can, not a condition.
// - Phishing-resistant (urn:callsign:acr:phr) is reached only by a passkey. A single sign-on or a sign-in
//   below it is asked for a passkey when the account has one.
// - An account with no passkey goes on at the level it reached, and its tokens' `acr` say which.
import { ACR_PHISHING_RESISTANT, ACR_VALUES, acrOf } from '../sessions/authentication.ts';

/** The most acr_values a request may list; a longer list is ignored as a whole. */
const MOST_VALUES = 10;

/** The first value of a space-separated acr_values that this service knows, if any. */
export function requestedAcr(acrValues: string | undefined): string | undefined {
  const values = acrValues?.split(' ').filter(Boolean) ?? [];
  if (values.length > MOST_VALUES) return undefined;
  return values.find((v): v is (typeof ACR_VALUES)[number] => (ACR_VALUES as readonly string[]).includes(v));
}

/** Whether a sign-in proved with these methods falls short of the level the request asks for. */
export function fallsShortOf(requested: string | undefined, amr: readonly string[]): boolean {
  return requested === ACR_PHISHING_RESISTANT && acrOf(amr) !== ACR_PHISHING_RESISTANT;
}
