// A passkey's signature counter: how a cloned authenticator shows itself.
//
// Rules it enforces:
// - An authenticator that keeps a counter (either the stored or the reported value is above 0) must report
//   more than it did at the passkey's last use; a counter that stayed or went back means two authenticators
//   hold the same key, and the sign-in is refused (and logged at warn by the caller).
// - An authenticator that keeps none (0 stored and 0 reported, as synced passkeys do) is not judged by it.
// - The counter is judged only once the answer's signature holds (passkey-sign-in.ts): an answer anyone can
//   make from a known credential id raises no clone warning.

/** The counter in WebAuthn authenticator data: 4 bytes, big-endian, after the RP ID hash and the flags. */
export function reportedCounter(authenticatorData: string): number | undefined {
  const data = Buffer.from(authenticatorData, 'base64url');
  return data.length >= 37 ? data.readUInt32BE(33) : undefined;
}

export function counterWentBack(stored: number, reported: number): boolean {
  return (stored > 0 || reported > 0) && reported <= stored;
}
