import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

// BENCH_PIN_CPUS=service:0,load:1 keeps the load generator off the service's cores: this process (the paced
// client, and wrk, which it starts) runs on the `load` cores, and the service, its workers, the comparison
// servers, PostgreSQL and Redis on the `service` cores, as a second machine for the load would. Linux's
// taskset sets each thread's affinity; a process or thread started later inherits its parent's. Whatever was
// pinned is given every core back at the end (`release`).

export interface Pinning {
  service: string;
  load: string;
}

/** `service:0,load:1`: the two sets of cores, as taskset's lists; undefined when unset. */
export function parsePinning(value: string | undefined): Pinning | undefined {
  if (!value) return undefined;
  const parts = Object.fromEntries(value.split(',').map((p) => p.split(':').map((s) => s.trim())));
  if (!parts.service || !parts.load)
    throw new Error(`BENCH_PIN_CPUS must name both sets, e.g. service:0,load:1 (got "${value}")`);
  return { service: parts.service, load: parts.load };
}

const everyCore = () => `0-${availableParallelism() - 1}`;

/** Every thread of the process `pid` (and of its children) on these cores. */
function pinTree(pid: number, cores: string) {
  execFileSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore' });
  let children: string[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
  } catch {
    return; // ended meanwhile
  }
  for (const child of children) pinTree(Number(child), cores);
}

/** The running PostgreSQL and Redis servers' processes (their backends fork from them later). */
function databaseProcesses(): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'postgres' || comm === 'redis-server') out.push(Number(entry));
    } catch {}
  }
  return out;
}

/** The pinning of one run: what it pinned, to give back every core at the end. */
export function cpuPinning(pinning: Pinning | undefined) {
  const pinned = new Set<number>();
  const pin = (pid: number, cores: string) => {
    try {
      pinTree(pid, cores);
      pinned.add(pid);
    } catch {
      // a process that ended while being pinned
    }
  };
  return {
    on: pinning !== undefined,
    /** this process on the load's cores, PostgreSQL and Redis on the service's */
    start() {
      if (!pinning) return;
      pin(process.pid, pinning.load);
      for (const pid of databaseProcesses()) pin(pid, pinning.service);
    },
    /** a server the run started, with its workers, on the service's cores */
    server(pid: number) {
      if (pinning) pin(pid, pinning.service);
    },
    /** what the host line says of it */
    describe: () =>
      pinning
        ? `service, PostgreSQL and Redis on cores ${pinning.service}; the load generator on cores ${pinning.load}`
        : 'every process on every core',
    release() {
      for (const pid of pinned) {
        try {
          pinTree(pid, everyCore());
        } catch {}
      }
      for (const pid of databaseProcesses()) {
        try {
          pinTree(pid, everyCore());
        } catch {}
      }
    },
  };
}
