// A test's PGlite taken again by the next test of the same process, emptied back to what the migrated
// template holds. The rules a reused PGlite keeps, so that no test sees what another left:
// - Its rows: every table's rows are deleted but the migrations', and the rows the template holds (the
//   signing keys) written back as they were; its sequences start again.
// - Its session: settings, prepared statements, temporary tables, LISTENs and advisory locks go (DISCARD ALL).
// - Its schema: one a test changed (a table, column, trigger or function added or dropped) is never reused,
//   nor one closed, nor one left inside a transaction.
import type { PGlite } from '@electric-sql/pglite';
import { schemaDigest } from './schema-digest.ts';
import { emptyingStatements, type Fillable, fillableOf } from './schema-emptying.ts';

/** What a PGlite fresh from the template holds, read once per process. */
interface TemplateState {
  schemaDigest: string;
  fillable: Fillable;
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
    const fillable = await fillableOf(
      async (sql, params) => (await fresh.query<{ name: string }>(sql, params)).rows,
      'public',
    );
    const held = await fresh.query<{ table: string; json: string | null }>(
      fillable.tables
        .map((t) => `SELECT '${t}' AS table, json_agg(r)::text AS json FROM "${t}" r`)
        .join(' UNION ALL '),
    );
    const rows = held.rows.flatMap(({ table, json }) => (json ? [{ table, json }] : []));
    return { schemaDigest, fillable, rows };
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
      await tx.exec(emptyingStatements(state.fillable).join(';\n'));
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
