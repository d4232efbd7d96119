import type { PhoneRisk as PhoneRiskAnswer } from '../../admin/phone-risk-routes.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { type Frame, postForm, table, when } from './layout.ts';

/** What the admin API answers of an account's number's SIM checks (GET /admin/v1/users/:id/phone-checks). */
export type PhoneRisk = Answered<typeof PhoneRiskAnswer>;

/**
 * The user page's number section: the flag and the clearance, the latest checks, and the clearance an operator
 * gives once they verified the owner another way (the trail keeps who did it).
 */
export function phoneChecksSection(
  f: Frame,
  base: string,
  risk: PhoneRisk | undefined,
  imported = false,
): string {
  if (!risk) return '';
  const flag = risk.recycled_at
    ? `<p><strong>Flagged:</strong> the number was found recycled on ${when(risk.recycled_at)}.</p>`
    : '';
  const cleared = risk.cleared_until
    ? `<p>Cleared by an operator until ${when(risk.cleared_until)}.</p>`
    : '';
  const since = imported ? 'never here: it came with the import' : 'at sign-up';
  const proven = `<p>Number last proved ${risk.proven_at ? when(risk.proven_at) : since}.</p>`;
  const checks = table(
    ['Checked', 'Provider', 'Check', 'Answer', 'Last SIM change', 'Detail'],
    risk.checks.map((k) => [
      when(k.checked_at),
      esc(k.provider),
      esc(k.check),
      esc(k.outcome),
      k.last_swap_at ? when(k.last_swap_at) : '',
      esc(k.detail),
    ]),
    'No SIM checks yet.',
  );
  const clear = `${postForm(`${base}/phone-risk/clear`, f.csrf, '', 'Clear for 24 hours')} <small>Only after verifying the owner another way: code sign-ins and PIN resets skip the SIM checks for 24 hours.</small>`;
  return `<h2>Phone number checks</h2>${flag}${cleared}${proven}${checks}<p>${clear}</p>`;
}
