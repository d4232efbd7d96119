import { PinHasher } from '../../src/domain/pin-hasher.ts';
import { type Answer, type TestApp, uniqueIp } from './app.ts';

/**
 * Starts a sign-in and holds it at its PIN check (its attempt already counted) until the test releases it;
 * the real argon2 check then runs. A test can act in the window between the attempt and the session.
 */
export async function signInHeldAtPinCheck(
  t: TestApp,
  who: { phone: string; pin: string },
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
  const answer = t.request('POST', '/auth/signin', {
    body: { phone: who.phone, pin: who.pin },
    ip: uniqueIp(),
  });
  await atCheck;
  return { answer, release };
}
