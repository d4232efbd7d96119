import { fieldError } from '../errors.ts';

// The most common PINs (DataGenetics' PIN frequency study and similar lists), beyond the all-one-digit
// and straight-run PINs that isTrivialPin catches by rule.
const COMMON_PINS = new Set([
  '1212',
  '1004',
  '2000',
  '6969',
  '1122',
  '4321',
  '2580',
  '5683',
  '112233',
  '121212',
  '1313',
  '2001',
  '2222',
  '1010',
  '7777',
  '1111',
  '4444',
  '5555',
  '6666',
  '8888',
  '9999',
  '0000',
  '1998',
  '1999',
  '2468',
  '1357',
  '0852',
  '0007',
  '1230',
  '123123',
  '696969',
  '159753',
  '147258',
  '131313',
  '777777',
  '102030',
  '101010',
  '200000',
  '520520',
  '252525',
]);

function isStraightRun(pin: string): boolean {
  const steps = new Set<number>();
  for (let i = 1; i < pin.length; i++) steps.add((Number(pin[i]) - Number(pin[i - 1]) + 10) % 10);
  // +1 (1234, 7890) or -1 (4321, 0987) on every step
  return steps.size === 1 && (steps.has(1) || steps.has(9));
}

export const isWellFormedPin = (pin: unknown): pin is string =>
  typeof pin === 'string' && /^[0-9]{4,6}$/.test(pin);

/** Exactly 4-6 ASCII digits, not trivially guessable; `field`: the input that holds it. */
export function assertAcceptablePin(pin: unknown, field = 'pin'): asserts pin is string {
  if (!isWellFormedPin(pin)) throw fieldError('INVALID_PIN', field, 'PIN must be 4 to 6 digits');
  if (/^(\d)\1+$/.test(pin) || isStraightRun(pin) || COMMON_PINS.has(pin)) {
    throw fieldError('INVALID_PIN', field, 'PIN is too easy to guess; choose another', {
      reason: 'too_easy',
    });
  }
}
