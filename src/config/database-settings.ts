import type { EnvReader } from './env-reader.ts';

// Where the service's data lives, and what stands between: PGlite in DATA_DIR when DATABASE_URL is unset,
// else PostgreSQL, directly or through a connection pooler.

/** What sits between the service and PostgreSQL: nothing, or a pooler in transaction mode (PgBouncer's). */
export type DatabasePooler = 'none' | 'transaction';

export interface DatabaseSettings {
  databaseUrl: string | undefined;
  /**
   * DATABASE_POOLER=transaction: a pooler hands each transaction (and each statement outside one) to any of
   * its server connections, so the service keeps nothing on a connection between them: no named prepared
   * statements, and no LISTEN through it.
   */
  databasePooler: DatabasePooler;
  /**
   * DATABASE_LISTEN_URL: a direct connection for LISTEN (the webhook outbox's wake-ups), past the pooler;
   * unset, DATABASE_URL's when there is no pooler, and none through one (the workers poll).
   */
  databaseListenUrl: string | undefined;
  /**
   * DATABASE_POOL_SIZE: the most connections each process holds (an HTTP worker, the worker process). Their sum
   * over every process of every instance must fit within the pooler's pool, or PostgreSQL's max_connections.
   */
  databasePoolSize: number;
}

export function databaseSettings(r: EnvReader): DatabaseSettings {
  const databaseUrl = r.str('DATABASE_URL');
  const databasePooler = r.oneOf<DatabasePooler>('DATABASE_POOLER', ['none', 'transaction'], 'none');
  const listen = r.str('DATABASE_LISTEN_URL');
  return {
    databaseUrl,
    databasePooler,
    databaseListenUrl: listen ?? (databasePooler === 'none' ? databaseUrl : undefined),
    databasePoolSize: r.integer('DATABASE_POOL_SIZE', 10, 1, 1000, 'a whole number of connections, 1-1000'),
  };
}
