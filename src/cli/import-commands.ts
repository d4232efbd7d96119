import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import {
  readSource,
  SOURCE_FORMATS,
  type SourceFormat,
  type SourceLine,
} from '../domain/imports/source-formats.ts';
import { IMPORT_MAX_LINES, type ImportReport } from '../domain/imports/user-import.ts';
import { fetchAdmin } from './admin-http.ts';
import { USERS_IMPORT_HELP } from './import-help.ts';

// `callsign users import FILE --format firebase|supabase|jsonl`: reads another identity provider's export,
// sends it to the admin API as Callsign's JSON Lines, 10,000 lines a request, with a progress bar on a
// terminal and a summary at the end. Line numbers in the report are the file's (for Firebase, the user's place
// in its list).

const OPTIONS = {
  format: { type: 'string' },
  'dry-run': { type: 'boolean' },
  'emit-events': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

/** Where progress is drawn: standard error, and only on a terminal. */
function progress(done: number, total: number) {
  if (!process.stderr.isTTY) return;
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  process.stderr.write(
    `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done.toLocaleString('en')} / ${total.toLocaleString('en')}`,
  );
  if (done === total) process.stderr.write('\n');
}

/** The file's lines sent in requests of at most IMPORT_MAX_LINES, the answers' line numbers made the file's. */
async function send(config: AdminClientSettings, lines: SourceLine[], query: string): Promise<ImportReport> {
  const records = lines.filter((l): l is Extract<SourceLine, { record: unknown }> => 'record' in l);
  const report: ImportReport = {
    imported: 0,
    skipped: lines.flatMap((l) => ('skip' in l ? [{ line: l.line, reason: l.skip }] : [])),
    failed: lines.flatMap((l) => ('error' in l ? [{ line: l.line, error: l.error }] : [])),
  };
  progress(0, records.length);
  for (let start = 0; start < records.length; start += IMPORT_MAX_LINES) {
    const chunk = records.slice(start, start + IMPORT_MAX_LINES);
    const jsonLines = chunk.map((l) => JSON.stringify(l.record)).join('\n');
    const answer = (await (
      await fetchAdmin(config, 'POST', `/users/import${query}`, { jsonLines })
    ).json()) as ImportReport;
    const fileLine = (n: number) => chunk[n - 1]?.line ?? n;
    report.imported += answer.imported;
    report.skipped.push(...answer.skipped.map((s) => ({ ...s, line: fileLine(s.line) })));
    report.failed.push(...answer.failed.map((f) => ({ ...f, line: fileLine(f.line) })));
    progress(Math.min(start + IMPORT_MAX_LINES, records.length), records.length);
  }
  report.skipped.sort((a, b) => a.line - b.line);
  report.failed.sort((a, b) => a.line - b.line);
  return report;
}

/** The report for people: the counts, the reasons, and the first failed lines. */
function summary(report: ImportReport, dryRun: boolean): string {
  const reasons = new Map<string, number>();
  for (const s of report.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  const why = [...reasons].map(([reason, n]) => `${reason}: ${n}`).join(', ');
  const lines = [
    `${dryRun ? 'would import' : 'imported'} ${report.imported}, skipped ${report.skipped.length}${why ? ` (${why})` : ''}, failed ${report.failed.length}`,
    ...report.failed.slice(0, 20).map((f) => `  line ${f.line}: ${f.error}`),
  ];
  if (report.failed.length > 20)
    lines.push(`  ... and ${report.failed.length - 20} more (--json lists them all)`);
  return lines.join('\n');
}

export async function importUsersCommand(config: AdminClientSettings, args: string[]): Promise<string> {
  const { values: o, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  const [, action, file] = positionals;
  if (action !== 'import' || !file)
    throw new Error(`unknown command "${positionals.join(' ')}"\n${USERS_IMPORT_HELP}`);
  const format = o.format as SourceFormat;
  if (!SOURCE_FORMATS.includes(format))
    throw new Error(`--format must be one of ${SOURCE_FORMATS.join(', ')}`);
  const lines = readSource(format, readFileSync(file, 'utf8'), new Date());
  const query = `?dry_run=${o['dry-run'] === true}&emit_events=${o['emit-events'] === true}`;
  const report = await send(config, lines, query);
  return o.json ? JSON.stringify(report, null, 2) : summary(report, o['dry-run'] === true);
}
