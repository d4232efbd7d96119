// How long a passkey's credential id may be.
//
// Rules it enforces:
// - WebAuthn caps a credential id at 1,023 bytes, 1,364 characters of base64url: a registration whose id (or
//   raw id) is longer is refused with INVALID_REQUEST before its answer is verified or anything is stored. The
//   schema holds every new row to the same bound.
import { fieldError } from '../errors.ts';

export const CREDENTIAL_ID_MAX_BYTES = 1023;
/** the base64url length of CREDENTIAL_ID_MAX_BYTES bytes, without padding */
export const CREDENTIAL_ID_MAX_CHARACTERS = Math.ceil((CREDENTIAL_ID_MAX_BYTES * 4) / 3);

export function assertCredentialIdLength(...ids: string[]): void {
  if (ids.some((id) => id.length > CREDENTIAL_ID_MAX_CHARACTERS))
    throw fieldError(
      'INVALID_REQUEST',
      'response',
      `the passkey could not be registered: its credential id is over ${CREDENTIAL_ID_MAX_BYTES} bytes`,
    );
}
