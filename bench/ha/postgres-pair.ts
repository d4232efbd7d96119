import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';

// A PostgreSQL primary and a standby by streaming replication, two clusters of Debian's PostgreSQL in folders
// of their own on ports of their own, as the postgres user. A failover is `pg_ctl promote` on the standby
// after the primary is stopped. With `synchronous`, the primary commits only once the standby has the commit.

const BIN = `/usr/lib/postgresql/${execFileSync('ls', ['/usr/lib/postgresql']).toString().trim().split('\n').pop()}/bin`;

/** A command as the postgres user (PostgreSQL will not run as root). */
export function asPostgres(command: string, args: string[], options: { allowFailure?: boolean } = {}) {
  const r = spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' });
  if (r.status !== 0 && !options.allowFailure)
    throw new Error(`${command} ${args.join(' ')}: ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** The same, without holding the event loop (the load goes on meanwhile). */
export async function asPostgresLater(command: string, args: string[]): Promise<string> {
  try {
    return (await promisify(execFile)('runuser', ['-u', 'postgres', '--', command, ...args])).stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')}: ${e.stderr || e.message}`);
  }
}

export interface PostgresNode {
  name: string;
  port: number;
  dataDir: string;
}

export interface PostgresPair {
  nodes: [PostgresNode, PostgresNode];
  /** the node that takes writes now */
  primary(): PostgresNode;
  standby(): PostgresNode;
  /**
   * The primary's stream to its standby stalls for `ms` (as a slow network or a busy standby makes it), then
   * the primary's processes are killed: the standby lacks what the primary wrote meanwhile.
   */
  crashBehind(ms: number): Promise<void>;
  /** The standby becomes the primary (after the old primary is stopped). */
  promote(): Promise<void>;
  /** The old primary, stopped, comes back as the new primary's standby (pg_rewind, then recovery). */
  rejoin(): Promise<void>;
  /** The whole pair stops. */
  close(): void;
}

const settings = (port: number, synchronous: boolean, standbyName: string) =>
  [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    "unix_socket_directories = '/tmp'",
    'wal_level = replica',
    'max_wal_senders = 5',
    // pg_rewind reads the old primary's WAL back to the last checkpoint both share: it must still be there.
    "wal_keep_size = '512MB'",
    'wal_log_hints = on',
    'hot_standby = on',
    'max_connections = 200',
    'fsync = off',
    synchronous ? `synchronous_standby_names = '${standbyName}'` : '',
  ].join('\n');

const HBA = [
  'local all all trust',
  'host all all 127.0.0.1/32 trust',
  'host replication all 127.0.0.1/32 trust',
];

/** Whether the standby named `name` streams from `primary` within 30 s. */
async function streaming(primary: PostgresNode, name: string): Promise<boolean> {
  for (let i = 0; i < 60; i++) {
    const state = await asPostgresLater(`${BIN}/psql`, [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-Atc',
      `SELECT state FROM pg_stat_replication WHERE application_name = '${name}'`,
    ]);
    if (state.trim() === 'streaming') return true;
    await sleep(500);
  }
  return false;
}

/** Starts the pair under `dir` (a folder postgres may write to) on `port` and `port + 1`. */
export function startPostgresPair(dir: string, port: number, synchronous: boolean): PostgresPair {
  const nodes: [PostgresNode, PostgresNode] = [
    { name: 'db1', port, dataDir: join(dir, 'db1') },
    { name: 'db2', port: port + 1, dataDir: join(dir, 'db2') },
  ];
  let primaryAt = 0;
  const ctl = (node: PostgresNode, ...args: string[]) =>
    asPostgres(`${BIN}/pg_ctl`, ['-D', node.dataDir, '-l', `${node.dataDir}.log`, ...args]);
  const ctlLater = (node: PostgresNode, ...args: string[]) =>
    asPostgresLater(`${BIN}/pg_ctl`, ['-D', node.dataDir, '-l', `${node.dataDir}.log`, ...args]);
  const configure = (node: PostgresNode, other: PostgresNode, sync: boolean) => {
    const conf = join(node.dataDir, 'postgresql.auto.conf');
    writeFileSync(conf, `${settings(node.port, sync, other.name)}\n`);
    writeFileSync(join(node.dataDir, 'pg_hba.conf'), `${HBA.join('\n')}\n`);
    execFileSync('chown', ['postgres:postgres', conf, join(node.dataDir, 'pg_hba.conf')]);
  };
  const follow = (node: PostgresNode, primary: PostgresNode) => {
    const conf = join(node.dataDir, 'postgresql.auto.conf');
    writeFileSync(
      conf,
      `${settings(node.port, synchronous, primary.name)}\nprimary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${node.name}'\n`,
    );
    execFileSync('chown', ['postgres:postgres', conf]);
    asPostgres('touch', [join(node.dataDir, 'standby.signal')]);
  };
  asPostgres(`${BIN}/initdb`, ['-D', nodes[0].dataDir, '-A', 'trust', '-U', 'postgres']);
  // Synchronous only once the standby is there: until then every commit would wait for it.
  configure(nodes[0], nodes[1], false);
  ctl(nodes[0], '-w', 'start');
  asPostgres(`${BIN}/createdb`, ['-h', '127.0.0.1', '-p', String(port), 'callsign']);
  asPostgres(`${BIN}/pg_basebackup`, [
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-D',
    nodes[1].dataDir,
    '-X',
    'stream',
    // A checkpoint at once: a spread one makes the copy of an empty database wait over a minute.
    '--checkpoint=fast',
  ]);
  follow(nodes[1], nodes[0]);
  ctl(nodes[1], '-w', 'start');
  configure(nodes[0], nodes[1], synchronous);
  ctl(nodes[0], 'reload');
  const pair: PostgresPair = {
    nodes,
    primary: () => nodes[primaryAt],
    standby: () => nodes[1 - primaryAt],
    async crashBehind(ms) {
      const primary = nodes[primaryAt];
      const sender = await asPostgresLater(`${BIN}/psql`, [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-Atc',
        'SELECT pid FROM pg_stat_replication',
      ]);
      for (const pid of sender.split('\n').filter(Boolean)) process.kill(Number(pid), 'SIGSTOP');
      await sleep(ms);
      const postmaster = Number(readFileSync(join(primary.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      spawnSync('pkill', ['-KILL', '-P', String(postmaster)]);
      process.kill(postmaster, 'SIGKILL');
      // Gone once the pid is: pg_rewind will not touch a folder a live postmaster holds.
      while (spawnSync('kill', ['-0', String(postmaster)]).status === 0) await sleep(50);
    },
    async promote() {
      await ctlLater(nodes[1 - primaryAt], '-w', 'promote');
      primaryAt = 1 - primaryAt;
      // Alone, the new primary commits without waiting for a standby (as Patroni does) until one is back.
      configure(nodes[primaryAt], nodes[1 - primaryAt], false);
      await ctlLater(nodes[primaryAt], 'reload');
    },
    async rejoin() {
      const old = nodes[1 - primaryAt];
      const primary = nodes[primaryAt];
      // Until its first checkpoint, a just promoted server still names the old timeline, and pg_rewind
      // would find nothing to rewind: the old primary's last writes would stay, and it could not follow.
      await asPostgresLater(`${BIN}/psql`, [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-c',
        'CHECKPOINT',
      ]);
      await asPostgresLater(`${BIN}/pg_rewind`, [
        '-D',
        old.dataDir,
        `--source-server=host=127.0.0.1 port=${primary.port} user=postgres dbname=postgres`,
      ]);
      follow(old, primary);
      await ctlLater(old, '-w', 'start');
      // Commits wait for the standby only once it streams: before, every commit would hang on it.
      if (!(await streaming(primary, old.name)))
        throw new Error(`${old.name} does not stream from ${primary.name}`);
      configure(primary, old, synchronous);
      await ctlLater(primary, 'reload');
    },
    close() {
      for (const node of nodes)
        asPostgres(`${BIN}/pg_ctl`, ['-D', node.dataDir, '-m', 'immediate', 'stop'], { allowFailure: true });
    },
  };
  return pair;
}
