// How a test database is emptied for the next test, on PGlite and on PostgreSQL alike: every table's rows
// deleted but the migrations', whose rows say the schema is migrated, and every sequence started again. The
// foreign keys' triggers are skipped (replica mode), so the tables empty in any order; the statements run in
// one transaction, which the caller opens.

/** The table that says which migrations a database holds: kept when the rest is emptied. */
const MIGRATIONS_TABLE = 'schema_migrations';

/** Runs one statement and answers its rows. */
type RowsOf = (sql: string, params: unknown[]) => Promise<{ name: string }[]>;

/** What a schema holds that a test fills: its tables (but the migrations') and its sequences. */
export interface Fillable {
  tables: string[];
  sequences: string[];
}

/** The tables and sequences of `schema`. */
export async function fillableOf(query: RowsOf, schema: string): Promise<Fillable> {
  const tables = await query(
    'SELECT tablename AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> $2',
    [schema, MIGRATIONS_TABLE],
  );
  const sequences = await query('SELECT sequencename AS name FROM pg_sequences WHERE schemaname = $1', [
    schema,
  ]);
  return { tables: tables.map(({ name }) => name), sequences: sequences.map(({ name }) => name) };
}

/** The statements, inside a transaction, that empty what `fillable` names, each name prefixed by `schema.`
 * where one is given. */
export function emptyingStatements({ tables, sequences }: Fillable, schema?: string): string[] {
  const prefix = schema ? `${schema}.` : '';
  return [
    'SET LOCAL session_replication_role = replica',
    ...tables.map((table) => `DELETE FROM ${prefix}"${table}"`),
    ...sequences.map((sequence) => `ALTER SEQUENCE ${prefix}"${sequence}" RESTART`),
  ];
}
