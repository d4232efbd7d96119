import { countDatabaseRoundTrip } from '../observability/round-trips.ts';
import type { Database, Queryable } from './db.ts';

// With round trips counted (observability/round-trips.ts), each statement is one round trip of the request that
// ran it, and a transaction two more: its BEGIN and its COMMIT.

function countedQueryable(q: Queryable): Queryable {
  return {
    query: (text, params) => {
      countDatabaseRoundTrip();
      return q.query(text, params);
    },
    exec: (text) => {
      countDatabaseRoundTrip();
      return q.exec(text);
    },
  };
}

/** The database with each statement, and each transaction's BEGIN and COMMIT, counted. */
export function countedDatabase(db: Database): Database {
  return {
    kind: db.kind,
    ...countedQueryable(db),
    transaction: async (fn) => {
      countDatabaseRoundTrip(false);
      const result = await db.transaction((tx) => fn(countedQueryable(tx)));
      countDatabaseRoundTrip(false);
      return result;
    },
    listen: (channel, onNotify) => db.listen(channel, onNotify),
    close: () => db.close(),
  };
}
