import { cpuPerRequest, cpuSnapshot } from './cpu-account.ts';
import { pacedLoop, type Result, type Step } from './load.ts';

// The paced runs: a scenario's requests started at a fixed share of its saturation rate, their latency counted
// from each request's scheduled start, and how busy they kept the cores. The paced loop's client costs this
// process more per request than wrk does at saturation, and requests that come spread out make smaller
// batches: half the saturation rate is not half the machine.

/**
 * Seconds of each paced run, at its rate, that are not counted. Right after what ran before it (the saturation
 * loop, the ceiling around it, the sign-ins that made its chains), a paced run's first second held most of its
 * slow answers, for reasons not pinned down; a paced figure is the steady state at that rate.
 */
export const PACED_WARM_UP_SECONDS = 2;
/** The paced runs' rate, as a share of the scenario's saturation rate (BENCH_PACED_SHARE; half unless set). */
export const PACED_SHARE = Number(process.env.BENCH_PACED_SHARE ?? 0.5);

export const pacedName = (name: string, saturation: number) =>
  `${name} (paced at ${PACED_SHARE === 0.5 ? 'half' : PACED_SHARE}: ${(saturation * PACED_SHARE).toFixed(0)}/s)`;

/** Paced runs against one service, and a row of CPU figures for each. */
export function pacedRuns(servicePid: number, seconds: number, lanes: number) {
  const cpuRows: string[][] = [];
  /** The paced run at its share of `saturation`: its warm-up, then the seconds measured, with their CPU. */
  const run = async (name: string, saturation: number, step: Step): Promise<Result> => {
    const rate = saturation * PACED_SHARE;
    await pacedLoop(rate, PACED_WARM_UP_SECONDS, lanes, step);
    const before = cpuSnapshot(servicePid);
    const runnerBefore = process.cpuUsage();
    const r = await pacedLoop(rate, seconds, lanes, step);
    const runner = process.cpuUsage(runnerBefore);
    const c = cpuPerRequest(
      before,
      cpuSnapshot(servicePid),
      r.requests - r.errors,
      (runner.user + runner.system) / 1000,
    );
    cpuRows.push([
      name,
      rate.toFixed(0),
      `${(100 * (1 - c.idleShare)).toFixed(0)}%`,
      ...[c.service, c.postgres, c.loadGenerator, c.machine].map((v) => v.toFixed(2)),
    ]);
    return r;
  };
  const table = () => [
    '| paced run | requests/s | cores busy | CPU ms per request: service | PostgreSQL | load generator (this process) | all cores |',
    '|---|---|---|---|---|---|---|',
    ...cpuRows.map((r) => `| ${r.join(' | ')} |`),
  ];
  return { run, table };
}
