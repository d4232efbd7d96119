import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// The daemons between the instances and their stores, each Debian's: PgBouncer in transaction mode in front of
// the PostgreSQL primary, HAProxy in front of the instances (health-checked on /health/ready), and Redis with a
// replica and three Sentinels.

/** A daemon in the foreground, killed at the end. */
export interface Daemon {
  child: ChildProcess;
  kill(): Promise<void>;
}

export function run(command: string, args: string[]): Daemon {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr?.on('data', () => {});
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Resolves once something accepts connections on the port (at most 10 s). */
export async function listening(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await sleep(50);
  }
  throw new Error(`nothing listens on ${port}`);
}

/** PgBouncer in transaction mode on `port`, for the database `callsign` at the primary's port. */
export function pgbouncer(dir: string, port: number) {
  const ini = join(dir, 'pgbouncer.ini');
  const users = join(dir, 'pgbouncer-users.txt');
  writeFileSync(users, '"postgres" ""\n');
  const write = (primaryPort: number) => {
    writeFileSync(
      ini,
      [
        '[databases]',
        `callsign = host=127.0.0.1 port=${primaryPort} dbname=callsign`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'auth_type = trust',
        `auth_file = ${users}`,
        'pool_mode = transaction',
        'default_pool_size = 40',
        'max_client_conn = 1000',
        'server_check_delay = 0',
        // A failed login to a server is tried again after a second, not PgBouncer's 15.
        'server_login_retry = 1',
        'unix_socket_dir =',
      ].join('\n'),
    );
    for (const file of [ini, users]) chmodSync(file, 0o644);
  };
  let daemon: Daemon | undefined;
  return {
    port,
    async start(primaryPort: number) {
      write(primaryPort);
      // PgBouncer will not run as root: it is told to become postgres.
      daemon = run('pgbouncer', ['-u', 'postgres', ini]);
      await listening(port);
    },
    /** Points it at a new primary: the file rewritten, and SIGHUP to read it. */
    repoint(primaryPort: number) {
      write(primaryPort);
      daemon?.child.kill('SIGHUP');
    },
    kill: () => daemon?.kill() ?? Promise.resolve(),
  };
}

/** HAProxy on `port` in front of the instances, taking out one whose /health/ready fails twice in a row. */
export async function haproxy(dir: string, port: number, backends: number[]): Promise<Daemon> {
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    `${[
      'global',
      '  maxconn 2000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 30s',
      '  timeout server 30s',
      // A readiness check answers within a second whatever is down; the check waits longer than that.
      '  timeout check 2s',
      '  retries 2',
      '  option redispatch',
      // A request refused before the instance read it (a killed instance's connection) goes to another.
      '  retry-on conn-failure empty-response',
      'frontend callsign',
      `  bind 127.0.0.1:${port}`,
      '  default_backend instances',
      'backend instances',
      '  balance roundrobin',
      '  option httpchk GET /health/ready',
      '  default-server inter 500ms fall 2 rise 2',
      ...backends.map((p, i) => `  server i${i + 1} 127.0.0.1:${p} check`),
    ].join('\n')}\n`,
  );
  const daemon = run('haproxy', ['-f', cfg, '-db']);
  await listening(port);
  return daemon;
}

/** Redis: a master, a replica of it, and three Sentinels that promote the replica when the master is gone. */
export async function redisSet(dir: string, port: number, sentinelPorts: number[], name: string) {
  const server = (p: number, extra: string[]) =>
    run('redis-server', [
      '--port',
      String(p),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      // A replica's first sync writes a snapshot: into the run's folder, not the working copy.
      '--dir',
      dir,
      ...extra,
    ]);
  const servers = new Map<number, Daemon>([
    [port, server(port, [])],
    [port + 1, server(port + 1, ['--replicaof', '127.0.0.1', String(port)])],
  ]);
  await Promise.all([listening(port), listening(port + 1)]);
  const sentinels = sentinelPorts.map((p) => {
    const conf = join(dir, `sentinel-${p}.conf`);
    writeFileSync(
      conf,
      [
        `port ${p}`,
        'bind 127.0.0.1',
        `sentinel monitor ${name} 127.0.0.1 ${port} 2`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        `sentinel parallel-syncs ${name} 1`,
      ].join('\n'),
    );
    return run('redis-sentinel', [conf]);
  });
  await Promise.all(sentinelPorts.map(listening));
  return {
    servers,
    /** Kills the server on `p` (the master, say), as a crash does. */
    kill: (p: number) => servers.get(p)?.kill() ?? Promise.resolve(),
    /** Starts the server on `p` again, a replica of the master at `masterPort`. */
    async restart(p: number, masterPort: number) {
      servers.set(p, server(p, ['--replicaof', '127.0.0.1', String(masterPort)]));
      await listening(p);
    },
    async close() {
      await Promise.all([...servers.values(), ...sentinels].map((d) => d.kill()));
    },
  };
}
