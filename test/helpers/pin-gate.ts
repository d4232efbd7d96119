import { PinHasher } from '../../src/domain/pin-hasher.ts';

/**
 * Holds the next PIN check until the test releases it (the real argon2 check then runs): a test can act in
 * the window between a sign-in's counted attempt and the session it opens.
 */
export function holdNextPinCheck() {
  const original = PinHasher.prototype.verify;
  let reached!: () => void;
  let release!: () => void;
  const reachedP = new Promise<void>((resolve) => {
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
  return { reached: reachedP, release };
}
