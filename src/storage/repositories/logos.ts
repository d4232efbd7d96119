import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export const logosRepo = {
  /** A logo named by its content; the same content fetched again is the same row. */
  insert: (q: Queryable, logo: { name: string; sourceUri: string; data: Buffer }, now: Date) =>
    all(
      q,
      sql`INSERT INTO logos (name, source_uri, data, created_at) VALUES (${logo.name}, ${logo.sourceUri}, ${logo.data}, ${now}) ON CONFLICT (name) DO NOTHING`,
    ),

  find: (q: Queryable, name: string) =>
    first<{ data: Uint8Array }>(q, sql`SELECT data FROM logos WHERE name = ${name}`),

  /** The newest logo fetched from this address, if one was. */
  latestFrom: (q: Queryable, sourceUri: string) =>
    first<{ name: string }>(
      q,
      sql`SELECT name FROM logos WHERE source_uri = ${sourceUri} ORDER BY created_at DESC LIMIT 1`,
    ),
};
