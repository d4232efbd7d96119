import { ConfigError, loadConfig } from '../../src/config/config.ts';

/** What the start would name wrong with these settings: every problem, or none. */
export function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}
