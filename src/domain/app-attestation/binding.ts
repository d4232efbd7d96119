import { createHash } from 'node:crypto';

// What an app's attestation is bound to: one challenge of this service, the number the code goes to and what
// the code is for, joined as `challenge|+E164|purpose`. Play Integrity carries it hashed (a standard request's
// `requestHash`: the hex SHA-256; a classic request's `nonce`: the base64url SHA-256, with or without its
// `=` padding, as Android's URL_SAFE | NO_WRAP keeps it); App Attest signs it as the assertion's client data.

export const bindingOf = (challenge: string, phone: string, purpose: string) =>
  `${challenge}|${phone}|${purpose}`;

const digest = (binding: string) => createHash('sha256').update(binding).digest();

/** A standard Play Integrity request's `requestHash`. */
export const requestHashOf = (binding: string) => digest(binding).toString('hex');

/** A classic Play Integrity request's `nonce`, without padding. */
export const nonceOf = (binding: string) => digest(binding).toString('base64url');
