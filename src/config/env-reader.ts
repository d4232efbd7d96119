import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export type Env = Record<string, string | undefined>;

/** Reads a `.env` file (KEY=VALUE lines) without overriding variables already set. */
export function readDotEnv(path = resolve('.env')): Env {
  if (!existsSync(path)) return {};
  const out: Env = {};
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)\s*$/.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    out[m[1]] = m[2].replace(/^(['"])(.*)\1$/, '$2');
  }
  return out;
}

/**
 * The environment's variables, each read by its kind; a variable that does not parse is noted in `problems`
 * (with its name and what it must be) and answered with the default, so every bad variable is named at once.
 */
export class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  /** The variable, trimmed; undefined when unset or empty. */
  str(name: string): string | undefined {
    const v = this.env[name]?.trim();
    return v ? v : undefined;
  }

  bool(name: string, fallback: boolean): boolean {
    const v = this.str(name);
    if (v === undefined) return fallback;
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    this.problems.push(`${name} must be true or false (got "${v}")`);
    return fallback;
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const v = this.str(name) ?? fallback;
    if ((allowed as readonly string[]).includes(v)) return v as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${v}")`);
    return fallback;
  }

  /** A whole number from `least` to `most`, or the fallback. */
  integer(name: string, fallback: number, least: number, most: number, what: string): number {
    const raw = this.str(name) ?? String(fallback);
    const n = Number(raw);
    if (Number.isInteger(n) && n >= least && n <= most) return n;
    this.problems.push(`${name} must be ${what} (got "${raw}")`);
    return fallback;
  }

  /** A retention in whole days, `least`-36500 (a hundred years: as good as kept), or undefined when unset. */
  days(name: string, least: number): number | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (Number.isInteger(n) && n >= least && n <= 36500) return n;
    this.problems.push(`${name} must be a whole number of days, ${least}-36500 (got "${v}")`);
    return undefined;
  }

  /** An http(s) URL without trailing slashes. */
  url(name: string, fallback: string): string {
    const v = this.str(name) ?? fallback;
    try {
      const u = new URL(v);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
      return v.replace(/\/+$/, '');
    } catch {
      this.problems.push(`${name} must be an http(s) URL (got "${v}")`);
      return fallback;
    }
  }

  /** A comma-separated list, each item trimmed and upper-cased; undefined when unset. */
  list(name: string): string[] | undefined {
    const v = this.str(name);
    return v
      ?.split(',')
      .map((item) => item.trim().toUpperCase())
      .filter(Boolean);
  }

  /** A credential of at least `minLength` characters, or undefined when unset. */
  token(name: string, minLength: number): string | undefined {
    const v = this.str(name);
    if (v !== undefined && v.length < minLength)
      this.problems.push(`${name} must be at least ${minLength} characters`);
    return v;
  }

  /** The named variables, each one set, or the problem of each one missing (`why` says what needs it). */
  required<K extends string>(names: readonly K[], why: string): Record<K, string> {
    const values = {} as Record<K, string>;
    for (const name of names) {
      const value = this.str(name);
      if (value === undefined) this.problems.push(`${name} is required when ${why}`);
      values[name] = value ?? '';
    }
    return values;
  }

  /** A key of at least 32 bytes, base64-encoded, or undefined when unset. */
  key(name: string): string | undefined {
    const v = this.str(name);
    if (v !== undefined && Buffer.from(v, 'base64').length < 32)
      this.problems.push(`${name} must be at least 32 bytes, base64-encoded`);
    return v;
  }
}
