import pg from 'pg';
import { isDatabaseUnavailable } from './database-errors.ts';

// A DATABASE_URL that names several hosts, as libpq takes them (`postgres://user@a:5432,b:5432/callsign`): the
// service connects to the one that takes writes, the primary, and finds it again when it moves (a failover
// promotes a standby, and the old primary is gone or comes back read-only).
//
// Rules it enforces:
// - New connections go to the last host found writable (`NOT pg_is_in_recovery()`, and not read-only);
//   until one is found, to the first host named.
// - An error that says the database cannot take the request (gone, restarting, read-only) starts one search,
//   however many requests meet it: each host in the order named, the first writable one wins. The requests
//   that met it are answered 503; the pool drops the connections that failed.
// - A failure met while a search is under way starts one more after it, for all that meet one meanwhile: the
//   search under way may have found its host writable just before that host went away.

/** The URLs of each host a multi-host URL names, in its order; a URL of one host as it is. */
export function urlsOfHosts(url: string): string[] {
  const parts = /^(postgres(?:ql)?:\/\/)([^@/]*@)?([^/?#]+)(.*)$/.exec(url);
  if (!parts || !parts[3].includes(',')) return [url];
  const [, scheme, credentials = '', hosts, rest] = parts;
  return hosts.split(',').map((host) => `${scheme}${credentials}${host}${rest}`);
}

type Connection = pg.ClientConfig & { connectionString: string };

/** How long a search waits for each host before trying the next. */
const HOST_CHECK_MS = 2000;

/** The primary among the hosts, as last found. */
export class PrimaryFinder {
  #current: string;
  #searching: Promise<void> | undefined;
  /** the search after the one under way, asked for meanwhile */
  #searchingNext: Promise<void> | undefined;
  constructor(
    private readonly urls: string[],
    private readonly connection: Omit<Connection, 'connectionString'>,
  ) {
    this.#current = urls[0];
  }

  current(): string {
    return this.#current;
  }

  /** Searches the hosts for the primary: one search at a time, and one more after it if asked meanwhile. */
  search(): Promise<void> {
    if (!this.#searching) {
      this.#searching = this.#find().finally(() => {
        this.#searching = undefined;
      });
      return this.#searching;
    }
    this.#searchingNext ??= this.#searching.then(() => {
      this.#searchingNext = undefined;
      return this.search();
    });
    return this.#searchingNext;
  }

  async #find(): Promise<void> {
    for (const url of this.urls) {
      const client = new pg.Client({
        ...this.connection,
        connectionString: url,
        connectionTimeoutMillis: HOST_CHECK_MS,
      });
      client.on('error', () => {});
      try {
        await client.connect();
        const { rows } = await client.query(
          "SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off' AS writable",
        );
        if (rows[0]?.writable === true) {
          this.#current = url;
          return;
        }
      } catch {
        // Not this host; the next.
      } finally {
        await client.end().catch(() => {});
      }
    }
  }
}

/**
 * The pool of connections to the database: to its one host, or to the primary among several. `failed` is
 * given each error of a statement, throws it on, and first starts a search for the primary where it says so;
 * `recovered` settles once that search has (at once with one host: the pool's next connection is new).
 */
export function connectionPool(
  connection: Connection,
  max: number,
): { pool: pg.Pool; failed(err: unknown): never; recovered(err: unknown): Promise<void> } {
  const urls = urlsOfHosts(connection.connectionString);
  const rethrow = (err: unknown): never => {
    throw err;
  };
  if (urls.length === 1)
    return { pool: new pg.Pool({ ...connection, max }), failed: rethrow, recovered: async () => {} };
  const finder = new PrimaryFinder(urls, connection);
  class PrimaryClient extends pg.Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionString: finder.current() });
    }
  }
  void finder.search();
  const pool = new pg.Pool({ ...connection, connectionString: urls[0], max, Client: PrimaryClient });
  return {
    pool,
    failed: (err) => {
      if (isDatabaseUnavailable(err)) void finder.search();
      return rethrow(err);
    },
    recovered: () => finder.search(),
  };
}
