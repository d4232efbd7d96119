import { isDatabaseUnavailable } from './database-errors.ts';

// When the connection under a statement is lost (the database restarting, a failover, a pooler going away),
// the statement is tried once more on a new connection only where running it twice changes nothing:
// - A statement that only reads (it begins with SELECT, takes no row locks and calls no function that
//   changes something) is tried once more, outside a transaction, after the search for the primary that the
//   failure started (with one host: at once, on a new connection of the pool).
// - A statement that writes is never tried again: the database may have committed it before the connection
//   was lost, and a second run could spend a code or rotate a refresh token twice. Its request is answered
//   503 with Retry-After, and the client decides.
// - Inside a transaction nothing is tried again: the transaction is gone with its connection, so its
//   request is answered 503 as a whole, never half-written.
// - Only errors of an unavailable database are tried again; any other error is the statement's own.

/** The opening of a statement that reads. */
const BEGINS_WITH_SELECT = /^\s*SELECT\b/i;
/** A row lock: the statement takes part in a change, so it belongs to a transaction. */
const TAKES_ROW_LOCKS = /\bFOR\s+(?:NO\s+KEY\s+)?(?:UPDATE|SHARE|KEY\s+SHARE)\b/i;
/** Functions a SELECT may call that change something. */
const CHANGES_SOMETHING =
  /\b(?:pg_advisory\w*|pg_notify|nextval|setval|set_config|pg_terminate_backend)\s*\(/i;

/** Whether running the statement twice is the same as running it once: a SELECT that only reads. */
export function onlyReads(sql: string): boolean {
  return BEGINS_WITH_SELECT.test(sql) && !TAKES_ROW_LOCKS.test(sql) && !CHANGES_SOMETHING.test(sql);
}

/**
 * Runs a statement outside a transaction; where it only reads and met an unavailable database, once more
 * after `recovered` (the search for the primary the failure started).
 */
export async function runRetryingReads<T>(
  sql: string,
  run: () => Promise<T>,
  recovered: (err: unknown) => Promise<void>,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!isDatabaseUnavailable(err) || !onlyReads(sql)) throw err;
    await recovered(err);
    return run();
  }
}
