// The PostgreSQL schemas a run of `npm test` passes from one test file to the next (test/helpers/postgres-schemas.ts):
// a file whose tests have ended leaves its emptied schemas under a name of the run's, and the run drops those
// still waiting when it ends.
import pg from 'pg';

/**
 * The name a schema waiting for the run's next file starts with; none for a run id that is not hex.
 * @param {string | undefined} run the run's id (TEST_RUN_ID)
 */
export function waitingPrefix(run) {
  return run && /^[0-9a-f]+$/.test(run) ? `waiting_${run}_` : undefined;
}

/**
 * Drops the schemas still waiting for a file of the run.
 * @param {string} url the test database (TEST_DATABASE_URL)
 * @param {string} run the run's id
 */
export async function dropWaitingSchemas(url, run) {
  const prefix = waitingPrefix(run);
  if (!prefix) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1)',
      [prefix],
    );
    for (const { name } of rows) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  } finally {
    await client.end();
  }
}
