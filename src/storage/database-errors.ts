// Which errors of the database's driver say the database cannot take the request for now, though the request
// itself is sound: the service answers those 503 (the client tries again), and finds the primary again.

/** The SQLSTATEs of a database that cannot take the request now, though the request itself is sound. */
const UNAVAILABLE_STATES = new Set([
  '25006', // read_only_sql_transaction: a standby, or a primary a failover demoted
  '53300', // too_many_connections
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, or shutting down
]);
/** The network's refusals of a connection, and node-postgres's words for one lost or never made. */
const UNAVAILABLE_NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const LOST_CONNECTION =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether an error says the database is out of reach or cannot take writes for now (a failover, a restart, a
 * pooler in between going away): the request may be tried again, so it is answered 503, not 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (UNAVAILABLE_STATES.has(code) || code.startsWith('08') || UNAVAILABLE_NETWORK.has(code))
  )
    return true;
  return LOST_CONNECTION.test(err.message);
}
