import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePhone } from '../src/domain/phone.ts';

// Bringing users: `callsign users import FILE --format jsonl` of 100,000 accounts into a running service, as an
// operator runs it (the command, the admin API in requests of 10,000 lines, the database), timed from the
// command's start to its summary; then the same file again, which changes nothing.

const BIN = new URL('../bin/callsign.mjs', import.meta.url).pathname;

/** Distinct numbers none of the other scenarios use (they use +1650 and +1415). */
function numbers(n: number): string[] {
  const out = new Set<string>();
  while (out.size < n) {
    try {
      out.add(parsePhone(`+1312${randomInt(2_000_000, 9_999_999)}`).e164);
    } catch {}
  }
  return [...out];
}

/** Seconds the command took, and what it printed. */
function timedImport(file: string, env: NodeJS.ProcessEnv): Promise<{ seconds: number; out: string }> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [BIN, 'users', 'import', file, '--format', 'jsonl'], { env });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out += chunk;
  });
  return new Promise((resolve, reject) =>
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the import failed: ${out}`));
      resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, out: out.trim() });
    }),
  );
}

export async function userImportBenchmark(
  port: number,
  adminToken: string,
  count: number,
): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'callsign-bench-import-'));
  try {
    const file = join(dir, 'users.jsonl');
    const lines = numbers(count).map((phone, i) =>
      JSON.stringify({
        phone,
        external_id: `bench-${i}`,
        name: `Bench User ${i}`,
        created_at: '2024-01-01T00:00:00Z',
      }),
    );
    writeFileSync(file, `${lines.join('\n')}\n`);
    const env = {
      ...process.env,
      BASE_URL: `http://127.0.0.1:${port}`,
      ADMIN_TOKEN: adminToken,
      DATABASE_URL: '',
    };
    const first = await timedImport(file, env);
    const again = await timedImport(file, env);
    return [
      '',
      '| user import (`callsign users import`, jsonl) | users | seconds | users/s | summary |',
      '|---|---|---|---|---|',
      `| a new import | ${count} | ${first.seconds.toFixed(1)} | ${(count / first.seconds).toFixed(0)} | ${first.out} |`,
      `| the same file again | ${count} | ${again.seconds.toFixed(1)} | ${(count / again.seconds).toFixed(0)} | ${again.out.split(' (')[0]} |`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
