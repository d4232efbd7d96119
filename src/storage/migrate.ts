import { readdirSync, readFileSync } from 'node:fs';
import type { Database } from './db.ts';
import { all, sql } from './sql.ts';

const dir = new URL('./migrations/', import.meta.url);

const migrationFiles = () =>
  readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();

/** The newest migration this code knows. */
export const LATEST_MIGRATION = Number(migrationFiles().at(-1)?.slice(0, 3) ?? 0);

/** Whether the database holds every migration this code knows (an instance older than the schema passes too). */
export async function migrationsCurrent(db: Database): Promise<boolean> {
  const [row] = await all<{ latest: number | null }>(
    db,
    sql`SELECT max(version) AS latest FROM schema_migrations`,
  );
  return (row?.latest ?? 0) >= LATEST_MIGRATION;
}

/** Numbered SQL files, forward only; one advisory lock so two instances starting together apply each once. */
export async function migrate(db: Database): Promise<string[]> {
  const files = migrationFiles();
  return db.transaction(async (tx) => {
    await all(tx, sql`SELECT pg_advisory_xact_lock(724201)`);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set(
      (await all<{ version: number }>(tx, sql`SELECT version FROM schema_migrations`)).map((r) => r.version),
    );
    const applied: string[] = [];
    for (const file of files) {
      const version = Number(file.slice(0, 3));
      if (done.has(version)) continue;
      await tx.exec(readFileSync(new URL(file, dir), 'utf8'));
      await all(tx, sql`INSERT INTO schema_migrations (version, name) VALUES (${version}, ${file})`);
      applied.push(file);
    }
    return applied;
  });
}
