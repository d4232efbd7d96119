import { readdirSync, readFileSync } from 'node:fs';

// Where a scenario's CPU goes: every process on the machine shares the same two cores, so requests/s alone
// can't tell the service's cost from PostgreSQL's or the load generator's. Linux counts in ticks of 10 ms
// (USER_HZ 100), read from /proc.

const TICK_MS = 10;

export interface CpuCost {
  service: number;
  /** the part of `service` spent on its processes' main threads; the rest ran on their other threads: the
   * libuv thread pool, where the PIN hashes run, and V8's helpers; the token signatures run on the main
   * threads (P82) */
  serviceMainThreads: number;
  postgres: number;
  redis: number;
  loadGenerator: number;
  /** every core's busy time, the kernel's own work (softirq of loopback traffic) included */
  machine: number;
  /** the share of the cores' time that nothing ran (idle or waiting for the disk): a closed loop that leaves
   * some has not saturated the machine */
  idleShare: number;
}

type Group = 'service' | 'postgres' | 'redis';

export interface CpuSnapshot {
  /** per process: its group and CPU milliseconds so far (a process that ends takes its count with it) */
  processes: Map<number, { group: Group; ms: number; mainThreadMs: number }>;
  machine: number;
  /** every core's idle and busy time together */
  cores: number;
}

/** A process's (or, under /task/, a thread's) name, parent and CPU milliseconds so far, from its stat file. */
function readStat(path: string) {
  const stat = readFileSync(path, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    ppid: Number(f[1]),
    ms: (Number(f[11]) + Number(f[12])) * TICK_MS,
  };
}

function processes(): Array<{ pid: number; comm: string; ppid: number; ms: number }> {
  const out = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      out.push({ pid: Number(entry), ...readStat(`/proc/${entry}/stat`) });
    } catch {
      // the process ended between listing and reading
    }
  }
  return out;
}

/** The CPU milliseconds of a process's main thread (its thread id is the process id). */
function mainThreadMs(pid: number): number {
  try {
    return readStat(`/proc/${pid}/task/${pid}/stat`).ms;
  } catch {
    return 0; // ended meanwhile
  }
}

/** CPU milliseconds used so far: by `servicePid` and its children, PostgreSQL, Redis, all cores. */
export function cpuSnapshot(servicePid: number): CpuSnapshot {
  const groups = new Map<number, { group: Group; ms: number; mainThreadMs: number }>();
  for (const p of processes()) {
    const group: Group | undefined =
      p.pid === servicePid || p.ppid === servicePid
        ? 'service'
        : p.comm === 'postgres'
          ? 'postgres'
          : p.comm === 'redis-server'
            ? 'redis'
            : undefined;
    if (group)
      groups.set(p.pid, { group, ms: p.ms, mainThreadMs: group === 'service' ? mainThreadMs(p.pid) : 0 });
  }
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: busy is all but idle and iowait
  const busy = fields.slice(0, 8).reduce((s, v, i) => (i === 3 || i === 4 ? s : s + v), 0);
  return { processes: groups, machine: busy * TICK_MS, cores: (busy + fields[3] + fields[4]) * TICK_MS };
}

/**
 * CPU milliseconds per request between two snapshots, of the processes alive at both, and of the load
 * generator (wrk, which has exited by then: its own count).
 */
export function cpuPerRequest(
  before: CpuSnapshot,
  after: CpuSnapshot,
  requests: number,
  loadGeneratorMs: number,
): CpuCost {
  const used = { service: 0, postgres: 0, redis: 0 };
  let serviceMainThreads = 0;
  for (const [pid, p] of after.processes) {
    const earlier = before.processes.get(pid);
    if (!earlier) continue;
    used[p.group] += p.ms - earlier.ms;
    serviceMainThreads += p.mainThreadMs - earlier.mainThreadMs;
  }
  const n = Math.max(1, requests);
  return {
    service: used.service / n,
    serviceMainThreads: serviceMainThreads / n,
    postgres: used.postgres / n,
    redis: used.redis / n,
    loadGenerator: loadGeneratorMs / n,
    machine: (after.machine - before.machine) / n,
    idleShare: 1 - (after.machine - before.machine) / Math.max(1, after.cores - before.cores),
  };
}
