import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openPglite } from '../../src/storage/db.ts';
import { BIN, CHILD_CWD } from '../helpers/spawn-server.ts';

// P96: a PGlite directory is one process's at a time; a second opener is refused, naming the first, and a
// lock whose process is gone is taken over.

describe('the PGlite directory lock', () => {
  const root = mkdtempSync(join(tmpdir(), 'callsign-lock-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  /** A PGlite directory's path in a DATA_DIR of its own (which exists; the directory itself not yet). */
  const newDir = () => {
    const dataDir = join(root, `d${n++}`);
    mkdirSync(dataDir);
    return join(dataDir, 'pglite');
  };

  /** What an open of `dir` is told; one that opens after all (the defect looked for) is closed again. */
  const refusal = async (dir: string) => {
    try {
      await (await openPglite(dir)).close();
      return 'opened';
    } catch (err) {
      return (err as Error).message;
    }
  };

  /** The id of a process that has run and ended. */
  const endedPid = () =>
    new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '']);
      child.once('exit', () => resolve(child.pid as number));
    });

  test('a second open of the directory is refused, naming the holder; closing lets it go', async () => {
    const dir = newDir();
    const first = await openPglite(dir);
    await first.query('CREATE TABLE kept (v text)');
    assert.match(await refusal(dir), new RegExp(`${dir} is in use by process ${process.pid}: stop it first`));
    await first.query(`INSERT INTO kept VALUES ('still writable')`);
    await first.close();
    assert.ok(!existsSync(`${dir}.lock`), 'closed: no lock left');
    const again = await openPglite(dir);
    try {
      assert.deepEqual(await again.query('SELECT v FROM kept'), [{ v: 'still writable' }]);
    } finally {
      await again.close();
    }
  });

  test('`callsign migrate` on the directory of a running process ends with the reason and leaves it alone', async () => {
    const dir = newDir();
    const held = await openPglite(dir);
    try {
      const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = execFile(
          process.execPath,
          [BIN, 'migrate'],
          {
            env: { ...process.env, DATABASE_URL: '', DATA_DIR: join(dir, '..') },
            cwd: CHILD_CWD,
            timeout: 60_000,
          },
          (_err, _stdout, stderr) => resolve({ code: child.exitCode, stderr }),
        );
      });
      assert.equal(code, 1, stderr);
      assert.match(stderr, new RegExp(`is in use by process ${process.pid}`));
      assert.deepEqual(await held.query('SELECT 1 AS one'), [{ one: 1 }]);
      assert.equal(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid, process.pid, 'still ours');
    } finally {
      await held.close();
    }
  });

  test('the lock of a process that has ended is taken over', async () => {
    const dir = newDir();
    // As after a crash: the lock stayed, its process is gone.
    writeFileSync(`${dir}.lock`, JSON.stringify({ pid: await endedPid(), started: null }));
    const db = await openPglite(dir);
    try {
      assert.equal(JSON.parse(readFileSync(`${dir}.lock`, 'utf8')).pid, process.pid);
    } finally {
      await db.close();
    }
  });

  test(
    'a lock naming this process id with another start time is a reused id (a restarted container): taken over',
    { skip: !existsSync('/proc/self/stat') && 'start times are read from /proc' },
    async () => {
      const dir = newDir();
      writeFileSync(`${dir}.lock`, JSON.stringify({ pid: process.pid, started: '1' }));
      const db = await openPglite(dir);
      await db.close();
    },
  );

  test("an unreadable lock file is taken over; a live holder's is not, nor let go by anyone else", async () => {
    const dir = newDir();
    writeFileSync(`${dir}.lock`, 'not json');
    const db = await openPglite(dir);
    await db.close();

    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      const theirs = JSON.stringify({ pid: other.pid, started: null });
      writeFileSync(`${dir}.lock`, theirs);
      assert.match(await refusal(dir), new RegExp(`in use by process ${other.pid}`));
      assert.equal(readFileSync(`${dir}.lock`, 'utf8'), theirs, 'a refused open leaves the lock');

      // A process whose lock was deleted under it and taken by another lets go of nothing when it closes.
      rmSync(`${dir}.lock`);
      const late = await openPglite(dir);
      writeFileSync(`${dir}.lock`, theirs);
      await late.close();
      assert.equal(readFileSync(`${dir}.lock`, 'utf8'), theirs);
    } finally {
      other.kill();
    }
  });
});
