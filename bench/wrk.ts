import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The saturation loops run in wrk (Debian's package): a closed loop in C that costs the two shared cores a
// quarter of what undici's did (0.025 against 0.09-0.12 ms of CPU per request, measured against the floor
// server), which then goes to the service under test. What a loop sends is bench/wrk/loop.lua's.

const SCRIPT = new URL('./wrk/loop.lua', import.meta.url).pathname;

export interface WrkLoop {
  /** bench/wrk/loop.lua's WRK_MODE */
  mode: 'chain' | 'list' | 'authorize';
  path: string;
  /** the request body, `{}` standing for a token or a code (chain, authorize) */
  body?: string;
  contentType?: string;
  /** tokens (chain), bodies (list) or codes to start with (authorize) */
  inputs: string[];
  /** list: each body once, then this one */
  exhausted?: string;
  /** authorize: the path and cookie of the signed-in browser's authorization */
  authorize?: { path: string; cookie: string };
}

export interface WrkResult {
  requests: number;
  errors: number;
  /** answers of 200 with a body (chain, authorize: the exchanges) */
  answered: number;
  seconds: number;
  p50: number;
  p99: number;
  /** CPU milliseconds wrk used */
  cpuMs: number;
}

export function requireWrk() {
  if (spawnSync('wrk', ['--version']).error)
    throw new Error('npm run bench drives the service with wrk: apt-get install wrk (Debian)');
}

/** A closed loop of `connections` for `seconds` against 127.0.0.1:`port`. */
export async function wrk(
  port: number,
  connections: number,
  seconds: number,
  loop: WrkLoop,
): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'callsign-wrk-'));
  try {
    writeFileSync(join(dir, 'inputs'), loop.inputs.map((line) => `${line}\n`).join(''));
    const env = {
      ...process.env,
      WRK_MODE: loop.mode,
      WRK_PATH: loop.path,
      WRK_BODY: loop.body ?? '',
      WRK_CONTENT_TYPE: loop.contentType ?? 'application/json',
      WRK_INPUTS: join(dir, 'inputs'),
      WRK_EXHAUSTED: loop.exhausted ?? '',
      WRK_AUTHORIZE: loop.authorize?.path ?? '',
      WRK_COOKIE: loop.authorize?.cookie ?? '',
      ...(loop.mode === 'list' && loop.exhausted !== undefined ? { WRK_ONCE: '1' } : {}),
    };
    // bash's `times` prints the CPU its children used: wrk's own, read after it has exited.
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', SCRIPT];
    const child = spawn(
      'bash',
      ['-c', 'wrk "$@" || exit; times', 'bash', ...args, `http://127.0.0.1:${port}`],
      {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    const summary = /wrk-summary (.*)/.exec(out)?.[1];
    if (code !== 0 || !summary) throw new Error(`wrk failed (${code}):\n${out}`);
    const [user, system] = (out.trim().split('\n').pop() as string).split(' ').map(minutesSeconds);
    return { ...(JSON.parse(summary) as Omit<WrkResult, 'cpuMs'>), cpuMs: (user + system) * 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** bash's `times` format: 1m2.345s */
const minutesSeconds = (v: string) => {
  const m = /^(\d+)m([\d.]+)s$/.exec(v);
  if (!m) throw new Error(`unexpected times output: ${v}`);
  return Number(m[1]) * 60 + Number(m[2]);
};
