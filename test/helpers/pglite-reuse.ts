// A test's PGlite taken again by the next test of the same process, emptied back to what the migrated
// template holds. The rules a reused PGlite keeps, so that no test sees what another left:
// - Its rows: every table's rows are deleted but the migrations', and the rows the template holds (the
//   signing keys) written back as they were; its sequences start again.
// - Its session: settings, prepared statements, temporary tables, LISTENs and advisory locks go (DISCARD ALL).
// - Its schema: one a test changed (a table, column, trigger or function added or dropped) is never reused,
//   nor one closed, nor one left inside a transaction.
import type { PGlite } from '@electric-sql/pglite';
import { schemaDigest } from './schema-digest.ts';

/** The table that says which migrations a database holds: kept when the rest is emptied. */
const MIGRATIONS_TABLE = 'schema_migrations';

/** What a PGlite fresh from the template holds, read once per process. */
interface TemplateState {
  schemaDigest: string;
  tables: string[];
  sequences: string[];
  /** each table the template has rows in, with its rows as JSON */
  rows: { table: string; json: string }[];
}

let template: Promise<TemplateState> | undefined;
/** PGlites of this process, given back and emptied, for the next test. */
const emptied: PGlite[] = [];

/** Reads what the template holds from a PGlite just loaded from it (the first of the process). */
export function noteTemplate(fresh: PGlite): Promise<TemplateState> {
  template ??= (async () => {
    const schemaDigest = await digest(fresh);
    const tables = (
      await fresh.query<{ name: string }>(
        `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> $1`,
        [MIGRATIONS_TABLE],
      )
    ).rows.map(({ name }) => name);
    const sequences = (
      await fresh.query<{ name: string }>(
        `SELECT sequencename AS name FROM pg_sequences WHERE schemaname = 'public'`,
      )
    ).rows.map(({ name }) => name);
    const held = await fresh.query<{ table: string; json: string | null }>(
      tables
        .map((t) => `SELECT '${t}' AS table, json_agg(r)::text AS json FROM "${t}" r`)
        .join(' UNION ALL '),
    );
    const rows = held.rows.flatMap(({ table, json }) => (json ? [{ table, json }] : []));
    return { schemaDigest, tables, sequences, rows };
  })();
  return template;
}

/** A PGlite given back and emptied, if there is one. */
export const takeEmptied = (): PGlite | undefined => emptied.pop();

/** Empties a test's PGlite back to the template and keeps it for the next test; false where it cannot be. */
export async function emptiedForReuse(lite: PGlite): Promise<boolean> {
  if (lite.closed || !template) return false;
  const state = await template;
  try {
    if ((await digest(lite)) !== state.schemaDigest) return false;
    // Outside a transaction only: one a test left open makes this fail, and the PGlite is not reused.
    await lite.exec('DISCARD ALL');
    await lite.transaction(async (tx) => {
      // Replica mode skips the foreign keys' triggers, so the tables empty in any order.
      await tx.exec(
        [
          'SET LOCAL session_replication_role = replica',
          ...state.tables.map((t) => `DELETE FROM "${t}"`),
          ...state.sequences.map((s) => `ALTER SEQUENCE "${s}" RESTART`),
        ].join(';\n'),
      );
      for (const { table, json } of state.rows)
        await tx.query(`INSERT INTO "${table}" SELECT * FROM json_populate_recordset(null::"${table}", $1)`, [
          json,
        ]);
    });
  } catch {
    return false;
  }
  emptied.push(lite);
  return true;
}

const digest = (lite: PGlite): Promise<string> =>
  schemaDigest(async (sql, params) => (await lite.query<{ digest: string }>(sql, params)).rows, 'public');
