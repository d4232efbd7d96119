import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * PGlite is PostgreSQL in one process, and it takes no lock on its directory: a second process opening
 * the same one (a second `npm start`, `callsign migrate` beside a running server) opens it too, each
 * writes over the other, and the files end up unreadable (electric-sql/pglite#1106). So, as PostgreSQL's
 * postmaster.pid does, the directory is held through a lock file beside it naming the holder's process.
 */

/** Who holds the lock: a process id, and when that process started, so that a reused id is not taken for it. */
interface Holder {
  pid: number;
  started: string | null;
}

/**
 * A process's start time as Linux counts it (field 22 of /proc/PID/stat, after the command in parentheses);
 * null where there is no /proc, or no such process.
 */
function startOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(h: Holder): boolean {
  try {
    process.kill(h.pid, 0);
  } catch (err) {
    // EPERM: it exists, under another user.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // The same id with another start time is another process (ids are reused, and a container's restart gives
  // its server the same one again).
  const started = startOf(h.pid);
  return h.started === null || started === null || started === h.started;
}

function read(path: string): { text: string; holder: Holder | null } | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const h = JSON.parse(text) as Holder;
    return { text, holder: Number.isInteger(h.pid) && h.pid > 0 ? h : null };
  } catch {
    return { text, holder: null };
  }
}

const inUse = (dir: string, path: string, h: Holder | null) =>
  new Error(
    `the PGlite directory ${dir} is in use${h ? ` by process ${h.pid}` : ''}: stop it first (PGlite is one ` +
      `process's database; for several, set DATABASE_URL to a PostgreSQL server). If no process uses it, ` +
      `delete ${path}`,
  );

/**
 * Takes the lock of PGlite directory `dir` for this process, or throws an error naming the process that holds
 * it. A lock whose process is gone (a crash, a kill) is taken over. Answers how to let it go.
 */
export function lockDataDir(dir: string): () => void {
  const path = `${dir}.lock`;
  const me: Holder = { pid: process.pid, started: startOf(process.pid) };
  const mine = JSON.stringify(me);
  mkdirSync(dirname(path), { recursive: true });
  // Written whole under another name, then linked into place: the link fails if the lock exists, and a
  // reader never sees a half-written lock.
  const draft = `${path}.${process.pid}.draft`;
  writeFileSync(draft, mine);
  try {
    for (let tries = 0; ; tries++) {
      try {
        linkSync(draft, path);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const found = read(path);
      if (!found) continue; // let go of meanwhile: try again
      if (found.holder && alive(found.holder)) throw inUse(dir, path, found.holder);
      // Stale: moved aside under a name of this process's own, then checked to be the lock judged stale; a
      // lock another process put in place meanwhile goes back. Two processes starting at once over a stale
      // lock: one moves it, the other finds none or the first's.
      if (tries > 2) throw inUse(dir, path, found.holder);
      const aside = `${path}.${process.pid}.stale`;
      try {
        renameSync(path, aside);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw err;
      }
      const moved = read(aside);
      if (moved?.text !== found.text) {
        try {
          linkSync(aside, path);
        } catch {}
      }
      unlinkSync(aside);
    }
  } finally {
    unlinkSync(draft);
  }
  return () => {
    // Only this process's own lock: never one a later holder has put in place.
    if (read(path)?.text === mine) unlinkSync(path);
  };
}
