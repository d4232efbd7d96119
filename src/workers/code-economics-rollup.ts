import type { CodeEconomics } from '../domain/operators/code-economics.ts';
import type { Job } from './runner.ts';

/** Every hour: the economics of codes of the last hours rolled up again, while their sources are kept. */
export function codeEconomicsRollup(economics: CodeEconomics): Job<{ rolled: boolean }> {
  return {
    name: 'code-economics-rollup',
    everySeconds: 3600,
    async run(now) {
      await economics.rollUp(now);
      return { rolled: true };
    },
  };
}
