import type { Checks } from './checks.ts';
import { HUNG_MS, type Ledger } from './traffic.ts';

// What the fault run prints: per fault, the seconds until every request succeeded again (from the fault to the
// end of the last failed request answered before the next fault), the failures by status (0: no answer), the 5xx other than 503,
// and the requests that hung; then the checks that must all be 0.

const failed = (status: number) => status === 0 || status >= 500;

export function report(
  ledger: Ledger,
  faults: Array<{ name: string; at: number }>,
  checks: Checks,
  synchronous: boolean,
): string {
  const lines = [
    '',
    `replication: ${synchronous ? 'synchronous' : 'asynchronous'}; requests: ${ledger.answers.length}`,
    '',
    '| fault | requests | seconds until all succeed | failed, by status | 5xx other than 503 | hung > 10 s |',
    '|---|---|---|---|---|---|',
  ];
  // A request belongs to the fault in force when its answer came: one sent just before a fault that fails
  // because of it is that fault's.
  const ended = (a: Ledger['answers'][number]) => a.at + a.ms;
  const before = ledger.answers.filter((a) => ended(a) < faults[0].at);
  lines.push(row('(none, before the first fault)', before, faults[0].at));
  for (let i = 0; i + 1 < faults.length; i++) {
    const during = ledger.answers.filter((a) => ended(a) >= faults[i].at && ended(a) < faults[i + 1].at);
    lines.push(row(faults[i].name, during, faults[i].at));
  }
  const all5xx = ledger.answers.filter((a) => a.status >= 500 && a.status !== 503).length;
  const surprise = ledger.surprises[0] ? ` (${ledger.surprises[0]})` : '';
  lines.push(
    '',
    'checks (each must be 0):',
    `- 5xx other than 503: ${all5xx}`,
    `- requests that hung past ${HUNG_MS / 1000} s: ${ledger.answers.filter((a) => a.ms >= HUNG_MS).length}`,
    `- codes accepted twice (sign-up codes and authorization codes): ${ledger.codesUsedTwice}`,
    `- refresh tokens that gave two different successors: ${checks.refreshTokensUsedTwice}`,
    `- refresh chains broken (the client held the latest token, and it was refused): ${checks.chainsBroken} of ${checks.chainsChecked}`,
    `- sessions lost that a client held (its access token refused): ${checks.sessionsLost}`,
    `- webhook events committed and never delivered: ${checks.webhooksUndelivered} of ${checks.webhooksCommitted}`,
    `- accounts whose rows disagree (made and not there, or without their creation event): ${checks.accountsDisagreeing} of ${ledger.accounts.length}`,
    `- codes the service said it sent that never came: ${ledger.surprises.length}${surprise}`,
    '',
    `chains whose last refresh went unanswered (the client cannot know its token): ${checks.chainsUnsure}; of them refused at the end (the rotation went through, its answer lost): ${checks.chainsUnsureRefused}`,
    '',
    ...(checks.refusals.length
      ? ['what refused a chain or session a client held:', ...checks.refusals.map((r) => `- ${r}`), '']
      : []),
    'what the first failures of each status said:',
    ...[...ledger.failures].flatMap(([status, said]) => said.map((s) => `- ${status}: ${s}`)),
    '',
  );
  return lines.join('\n');
}

function row(name: string, answers: Ledger['answers'], from: number): string {
  const failures = answers.filter((a) => failed(a.status));
  const lastEnd = Math.max(from, ...failures.map((a) => a.at + a.ms));
  const byStatus = new Map<number, number>();
  for (const a of failures) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
  const statuses = [...byStatus].map(([s, n]) => `${s}: ${n}`).join(', ') || '-';
  const other5xx = failures.filter((a) => a.status >= 500 && a.status !== 503).length;
  const hung = answers.filter((a) => a.ms >= HUNG_MS).length;
  return `| ${name} | ${answers.length} | ${((lastEnd - from) / 1000).toFixed(1)} | ${statuses} | ${other5xx} | ${hung} |`;
}
