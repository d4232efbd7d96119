// A test's PGlite, made quickly: the migrated database's files are made once (once per run of the suite, or
// once per process for a file run alone) and a PGlite loads them, instead of running initdb and every
// migration again, which cost seconds a test. A PGlite a test has finished with is emptied back to what the
// template holds (`pglite-reuse.ts`, some 15 ms where loading costs half a second) and the next test of the
// same process takes it.
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Secrets } from '../../src/config/secrets.ts';
import { PurposeKeys } from '../../src/domain/purpose-keys.ts';
import { KeyRing } from '../../src/domain/sessions/key-ring.ts';
import { systemClock } from '../../src/providers/clock.ts';
import { pgliteDatabase } from '../../src/storage/db.ts';
import { migrate } from '../../src/storage/migrate.ts';
import { emptiedForReuse, noteTemplate, takeEmptied } from './pglite-reuse.ts';

/**
 * How a test's PGlite starts: PostgreSQL's own settings but 8 MB of shared buffers, not 128, which it would
 * zero at every start (half of a start's time) for the few rows a test writes.
 */
const PGLITE_START = [...PGlite.defaultStartParams, '-c', 'shared_buffers=8MB'];

/** The name of the migrated database's files in the folder a run of the suite shares (TEST_TEMPLATE_DIR). */
const TEMPLATE_FILE = 'pglite-template.tar';

/** A database's files as a tarball whose bytes are held, which a new PGlite loads. */
class HeldTarball extends Blob {
  readonly #bytes: ArrayBuffer;
  constructor(bytes: ArrayBuffer) {
    super([]);
    this.#bytes = bytes;
  }
  // Node's Blob would read its bytes back in chunks and join them: a third of a start's time.
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes);
  }
}

let template: Promise<ArrayBuffer> | undefined;

/** The files of a database migrated to the latest version, its signing key made with `secrets`. */
function templateFiles(secrets: Secrets): Promise<ArrayBuffer> {
  template ??= (async () => {
    const dir = process.env.TEST_TEMPLATE_DIR;
    const saved = dir && join(dir, TEMPLATE_FILE);
    if (saved && existsSync(saved)) {
      const file = await readFile(saved);
      return file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
    }
    const lite = await PGlite.create({ startParams: PGLITE_START });
    const db = pgliteDatabase(lite);
    await migrate(db);
    await new KeyRing(
      db,
      PurposeKeys.derive(secrets.keyEncryptionKey, undefined, 'signing-keys'),
      systemClock,
    ).load();
    const bytes = await (await lite.dumpDataDir('none')).arrayBuffer();
    await lite.close();
    if (saved) {
      // Written whole under a name of its own, then renamed: a file starting meanwhile reads all of it or none.
      const partial = `${saved}.${process.pid}`;
      await writeFile(partial, new Uint8Array(bytes));
      await rename(partial, saved);
    }
    return bytes;
  })();
  return template;
}

/** How many PGlites this process has started (a test sees that one given back is taken again). */
let started = 0;
export const pglitesStarted = (): number => started;

/**
 * A PGlite of a test's own: migrated, with the signing key `secrets` open (one given back and emptied, if
 * there is one), unless `empty`.
 */
export async function testPglite(secrets: Secrets, opts: { empty?: boolean }): Promise<PGlite> {
  const reused = opts.empty ? undefined : takeEmptied();
  if (reused) return reused;
  started++;
  if (opts.empty) return PGlite.create({ startParams: PGLITE_START });
  const lite = await PGlite.create({
    loadDataDir: new HeldTarball(await templateFiles(secrets)),
    startParams: PGLITE_START,
  });
  // Read from the first one loaded, before its test writes to it.
  await noteTemplate(lite);
  return lite;
}

/** A test's PGlite given back: emptied for the next test, or closed where it was `empty` or cannot be. */
export async function giveBackPglite(lite: PGlite, opts: { empty?: boolean }): Promise<void> {
  if (!opts.empty && (await emptiedForReuse(lite))) return;
  await lite.close().catch(() => {});
}
