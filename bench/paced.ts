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
/**
 * The paced runs' rates, as shares of the scenario's saturation rate (BENCH_PACED_SHARES, comma-separated; a
 * quarter and a half unless set): each scenario runs paced at each.
 */
export const PACED_SHARES = (process.env.BENCH_PACED_SHARES ?? '0.25,0.5').split(',').map(Number);

const shareName = (share: number) => ({ 0.25: 'a quarter', 0.5: 'half' })[share] ?? String(share);

export const pacedName = (name: string, saturation: number, share: number) =>
  `${name} (paced at ${shareName(share)}: ${(saturation * share).toFixed(0)}/s)`;

/** Paced runs against one service, and a row of CPU figures for each. */
export function pacedRuns(servicePid: number, seconds: number, lanes: number) {
  const cpuRows: string[][] = [];
  /**
   * The paced run at `rate`: its warm-up, then the seconds measured, with their CPU beside the service's CPU
   * per request at saturation (`saturatedServiceMs`), when known.
   */
  const run = async (
    name: string,
    rate: number,
    step: Step,
    saturatedServiceMs?: number,
  ): Promise<Result> => {
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
      c.service.toFixed(2),
      saturatedServiceMs
        ? `${saturatedServiceMs.toFixed(2)} (${(c.service / saturatedServiceMs).toFixed(2)}x)`
        : '-',
      ...[c.postgres, c.loadGenerator, c.machine].map((v) => v.toFixed(2)),
    ]);
    return r;
  };
  const table = () => [
    '| paced run | requests/s | cores busy | CPU ms per request: service | service at saturation (paced / saturated) | PostgreSQL | load generator (this process) | all cores |',
    '|---|---|---|---|---|---|---|---|',
    ...cpuRows.map((r) => `| ${r.join(' | ')} |`),
  ];
  return { run, table };
}
