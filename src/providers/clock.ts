// Time comes from here so tests can move it (OTP expiry, lock windows, retry schedules, the 30-day purge)
// instead of sleeping.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved: the tests' way to cross an expiry. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | number = Date.now()) {
    this.#ms = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(seconds: number): void {
    this.#ms += seconds * 1000;
  }
}

export const addSeconds = (d: Date, seconds: number) => new Date(d.getTime() + seconds * 1000);
export const unixSeconds = (d: Date) => Math.floor(d.getTime() / 1000);
