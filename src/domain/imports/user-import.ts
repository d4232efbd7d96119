// The user-import room: accounts brought from another identity provider (Firebase, Supabase, or Callsign's own
// JSON Lines), without their PINs: the first sign-in sets the PIN through the PIN reset. It owns the import
// format (import-line.ts), the plan of which lines become accounts (import-plan.ts), their handles
// (import-handles.ts) and the sources' formats (source-formats.ts).
//
// Rules:
// - An import is one transaction: every account of a request is written, or (a failure, or a dry run) none.
// - A line that is not an account (bad JSON, no valid phone, metadata out of bounds) fails alone, named by
//   its line; the other lines go on.
// - No webhook event is sent for an imported account unless the import asks (then `user.created` with
//   `imported: true`): bringing a thousand users is no news to the receivers unless they say so.
import type { Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database, Queryable } from '../../storage/db.ts';
import { importedUsersRepo } from '../../storage/repositories/imported-users.ts';
import { DomainError } from '../errors.ts';
import { type Events, payloads } from '../webhooks/events.ts';
import { acceptableHandle } from './import-handles.ts';
import { parseImportLine } from './import-line.ts';
import { idFromSource, type NumberedCandidate, planImport } from './import-plan.ts';
import { jsonLines } from './source-formats.ts';

/** The most lines one request imports. */
export const IMPORT_MAX_LINES = 10_000;
/** How often lines that met an account written meanwhile (by a sign-up, say) are planned again. */
const WRITE_ROUNDS = 3;

export interface ImportReport {
  imported: number;
  skipped: Array<{ line: number; reason: string }>;
  failed: Array<{ line: number; error: string }>;
}

export interface ImportOptions {
  /** everything checked and counted, nothing kept */
  dryRun?: boolean;
  emitEvents?: boolean;
}

/** The lines of JSON Lines text as accounts to create, and the lines that are none. */
function readLines(
  text: string,
  now: Date,
): { candidates: NumberedCandidate[]; failed: ImportReport['failed'] } {
  const read = jsonLines(text);
  if (read.length > IMPORT_MAX_LINES)
    throw new DomainError(
      'INVALID_REQUEST',
      `at most ${IMPORT_MAX_LINES} lines a request; send the rest in another`,
    );
  const candidates: NumberedCandidate[] = [];
  const failed: ImportReport['failed'] = [];
  for (const line of read) {
    if ('error' in line) failed.push(line);
    else
      try {
        candidates.push({ line: line.line, candidate: parseImportLine(line.value, now) });
      } catch (err) {
        failed.push({ line: line.line, error: (err as Error).message });
      }
  }
  return { candidates, failed };
}

/** A dry run's report, carried out of the transaction it rolls back. */
class DryRunDone {
  constructor(readonly report: ImportReport) {}
}

export class UserImport {
  constructor(private readonly d: { db: Database; clock: Clock; random: Random; events: Events }) {}

  async run(text: string, options: ImportOptions = {}): Promise<ImportReport> {
    const { candidates, failed } = readLines(text, this.d.clock.now());
    try {
      return await this.d.db.transaction(async (tx) => {
        const report = await this.write(tx, candidates, failed, options.emitEvents === true);
        if (options.dryRun) throw new DryRunDone(report);
        return report;
      });
    } catch (err) {
      if (err instanceof DryRunDone) return err.report;
      throw err;
    }
  }

  private async write(
    tx: Queryable,
    candidates: NumberedCandidate[],
    failed: ImportReport['failed'],
    emitEvents: boolean,
  ): Promise<ImportReport> {
    const now = this.d.clock.now();
    const report: ImportReport = { imported: 0, skipped: [], failed };
    let pending = candidates;
    for (let round = 1; pending.length > 0; round++) {
      if (round > WRITE_ROUNDS) {
        const error = 'another account took a value of this line meanwhile; import the line again';
        report.failed.push(...pending.map(({ line }) => ({ line, error })));
        break;
      }
      const plan = planImport(pending, await importedUsersRepo.existing(tx, valuesOf(pending)), {
        random: this.d.random,
        now,
      });
      report.skipped.push(...plan.skipped);
      const written = await importedUsersRepo.insert(
        tx,
        plan.writes.map((w) => w.user),
      );
      report.imported += written.length;
      if (emitEvents)
        for (const user of written)
          await this.d.events.emit(tx, 'user.created', { ...payloads.userCreated(user), imported: true });
      const writtenIds = new Set(written.map((u) => u.id));
      const missed = new Set(plan.writes.filter((w) => !writtenIds.has(w.user.id)).map((w) => w.line));
      pending = pending.filter(({ line }) => missed.has(line));
    }
    report.skipped.sort((a, b) => a.line - b.line);
    report.failed.sort((a, b) => a.line - b.line);
    return report;
  }
}

function valuesOf(lines: NumberedCandidate[]) {
  const present = <T>(values: (T | null)[]) => values.filter((v): v is T => v !== null);
  return {
    phones: lines.map((l) => l.candidate.phone),
    externalIds: present(lines.map((l) => l.candidate.externalId)),
    ids: present(lines.map((l) => idFromSource(l.candidate.externalId))),
    handles: present(lines.map((l) => acceptableHandle(l.candidate.handle))),
  };
}
