import { maybeOne, type Queryable } from '../db.ts';

export const logosRepo = {
  /** A logo named by its content; the same content fetched again is the same row. */
  insert: (q: Queryable, logo: { name: string; sourceUri: string; data: Buffer }, now: Date) =>
    q.query(
      `INSERT INTO logos (name, source_uri, data, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING`,
      [logo.name, logo.sourceUri, logo.data, now],
    ),

  find: (q: Queryable, name: string) =>
    maybeOne<{ data: Uint8Array }>(q, 'SELECT data FROM logos WHERE name = $1', [name]),

  /** The newest logo fetched from this address, if one was. */
  latestFrom: (q: Queryable, sourceUri: string) =>
    maybeOne<{ name: string }>(
      q,
      'SELECT name FROM logos WHERE source_uri = $1 ORDER BY created_at DESC LIMIT 1',
      [sourceUri],
    ),
};
