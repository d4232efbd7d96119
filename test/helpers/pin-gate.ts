import { PinHasher } from '../../src/domain/accounts/pin-hasher.ts';
import { type Answer, type TestApp, uniqueIp } from './app.ts';

/**
 * Sends a request that checks a PIN and holds it at that check (its attempt already counted) until the test
 * releases it; the real argon2 check then runs. A test can act in the window between the attempt and what
 * the request does with a correct PIN.
 */
export async function heldAtPinCheck(
  send: () => Promise<Answer>,
): Promise<{ answer: Promise<Answer>; release: () => void }> {
  const original = PinHasher.prototype.verify;
  let reached!: () => void;
  let release!: () => void;
  const atCheck = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  PinHasher.prototype.verify = async function (this: PinHasher, stored: string, pin: string) {
    PinHasher.prototype.verify = original;
    reached();
    await released;
    return original.call(this, stored, pin);
  };
  const answer = send();
  await atCheck;
  return { answer, release };
}

/** `heldAtPinCheck` for a REST sign-in. */
export const signInHeldAtPinCheck = (t: TestApp, who: { phone: string; pin: string }) =>
  heldAtPinCheck(() =>
    t.request('POST', '/auth/signin', { body: { phone: who.phone, pin: who.pin }, ip: uniqueIp() }),
  );
