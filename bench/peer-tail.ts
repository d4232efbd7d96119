import { client, percentile, type Result, type Step } from './load.ts';
import { pacedRuns } from './paced.ts';

// The tail beside a peer's: Callsign's OAuth refresh and oidc-provider's, paced at the same offered rate (half
// of oidc-provider's own saturation rate in the same run), one after the other on the same machine. Callsign
// keeps its tokens and rotations in its database; oidc-provider in its process's memory.

interface PacedSide {
  pid: number;
  step: Step;
  /** what the side needs before its paced run (chains of its own) */
  before: () => Promise<unknown>;
}

/** oidc-provider's refresh on a lane's chain: its form, as bench/oidc-provider-server.ts registers the client. */
export function oidcProviderRefresh(port: number, lanes: number, chains: string[]): Step {
  const http = client(port, lanes);
  return async (lane) => {
    const r = await http.form('/token', {
      grant_type: 'refresh_token',
      client_id: 'bench',
      refresh_token: chains[lane],
    });
    if (r.status !== 200) return false;
    chains[lane] = JSON.parse(r.text).refresh_token;
    return true;
  };
}

const tail = (r: Result) => {
  const sorted = [...r.latenciesMs].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: r.errors };
};

/** Both sides paced at `offered` requests a second: a table of their p50, p99 and CPU, and the p99s' ratio. */
export async function pairedTails(o: {
  offered: number;
  seconds: number;
  lanes: number;
  callsign: PacedSide;
  oidcProvider: PacedSide;
}): Promise<string[]> {
  const sides = [
    ['Callsign', o.callsign],
    ['oidc-provider', o.oidcProvider],
  ] as const;
  const rows: string[] = [];
  const p99s: number[] = [];
  for (const [name, side] of sides) {
    await side.before();
    const runs = pacedRuns(side.pid, o.seconds, o.lanes);
    const t = tail(await runs.run(name, o.offered, side.step));
    p99s.push(t.p99);
    const cpu = runs.table().at(-1)?.split(' | ') ?? [];
    rows.push(
      `| ${name} | ${t.p50.toFixed(1)} | ${t.p99.toFixed(1)} | ${t.errors} | ${cpu[2]} | ${cpu[3]} |`,
    );
  }
  return [
    '',
    `| OAuth refresh paced at the same rate, ${o.offered.toFixed(0)}/s (half oidc-provider's saturation) | p50 ms | p99 ms | errors | cores busy | CPU ms per request: its server |`,
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `p99 at the same rate, Callsign / oidc-provider: ${(p99s[0] / p99s[1]).toFixed(2)}`,
  ];
}
