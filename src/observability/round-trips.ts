import { AsyncLocalStorage } from 'node:async_hooks';

// What one request asks of the database and of Redis, counted when ROUND_TRIP_COUNTS is on (a diagnostic the
// benchmark turns on; off, every helper here is one test of a flag and nothing is followed): the statements it
// runs and the round trips they take (a transaction's BEGIN and COMMIT are round trips of their own), and the
// Redis commands with the round trips they take (commands sent in one tick of the event loop go in one write,
// as ioredis pipelines them).

export interface RoundTrips {
  statements: number;
  databaseRoundTrips: number;
  redisCommands: number;
  redisRoundTrips: number;
}

const requests = new AsyncLocalStorage<RoundTrips & { redisWriteOpen: boolean }>();
let counting = false;

/** Counting on, for the process (every app of it). */
export function countRoundTrips(): void {
  counting = true;
}

/** `run` with counts of its own, which `counted` answers as the run goes on. */
export function withRoundTripCounts<T>(run: () => T): T {
  if (!counting) return run();
  const counts = { statements: 0, databaseRoundTrips: 0, redisCommands: 0, redisRoundTrips: 0 };
  return requests.run({ ...counts, redisWriteOpen: false }, run);
}

/** The counts of the request running now, if counting is on. */
export function roundTripsSoFar(): RoundTrips | undefined {
  if (!counting) return undefined;
  const c = requests.getStore();
  return (
    c && {
      statements: c.statements,
      databaseRoundTrips: c.databaseRoundTrips,
      redisCommands: c.redisCommands,
      redisRoundTrips: c.redisRoundTrips,
    }
  );
}

/** A statement sent by itself (one round trip), or the BEGIN or COMMIT of a transaction (statement: false). */
export function countDatabaseRoundTrip(statement = true): void {
  if (!counting) return;
  const c = requests.getStore();
  if (!c) return;
  c.databaseRoundTrips += 1;
  if (statement) c.statements += 1;
}

/** A Redis command; the first of a tick opens a write that the others of the tick share. */
export function countRedisCommand(): void {
  if (!counting) return;
  const c = requests.getStore();
  if (!c) return;
  c.redisCommands += 1;
  if (c.redisWriteOpen) return;
  c.redisWriteOpen = true;
  c.redisRoundTrips += 1;
  process.nextTick(() => {
    c.redisWriteOpen = false;
  });
}

/** The counts as the answer's `X-Round-Trips` header says them. */
export const roundTripsHeader = (c: RoundTrips) =>
  `statements=${c.statements}, database=${c.databaseRoundTrips}, redis-commands=${c.redisCommands}, redis=${c.redisRoundTrips}`;
