// A digest of what a test could change in a schema besides its rows: its relations and their columns (by
// their types' names: a schema's own types have other ids in every schema), the triggers a statement made
// (not the foreign keys' own, named by ids) and its functions.
// A test database whose digest differs from a fresh one's is not reused.

const SCHEMA_DIGEST = `
  SELECT md5(string_agg(part, ',' ORDER BY part)) AS digest FROM (
    SELECT format('%s:%s:%s:%s', c.relname, c.relkind, a.attname, ty.typname) AS part
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      LEFT JOIN pg_type ty ON ty.oid = a.atttypid
     WHERE n.nspname = $1
    UNION ALL
    SELECT 'trigger:' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND NOT t.tgisinternal
    UNION ALL
    SELECT 'function:' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = $1
  ) parts`;

/** Runs one statement and answers its rows. */
type RowsOf = (sql: string, params: unknown[]) => Promise<{ digest: string }[]>;

/** The digest of `schema`'s tables, columns, triggers and functions. */
export async function schemaDigest(query: RowsOf, schema: string): Promise<string> {
  const [row] = await query(SCHEMA_DIGEST, [schema]);
  return row.digest;
}
