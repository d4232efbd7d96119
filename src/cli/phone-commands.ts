import { parseArgs } from 'node:util';
import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import { call, type Json, table } from './admin-http.ts';

// `callsign phone ...`: an account's number's SIM checks, and an operator's clearance once the owner is verified.

export const PHONE_HELP = `  phone checks USER_ID [--json]    the number's latest SIM swap and recycling checks, flag and clearance
  phone clear USER_ID [--json]     after verifying the owner another way: code steps skip the SIM checks
                                   for 24 hours, and the recycled flag goes (kept in the admin trail)`;

const OPTIONS = { json: { type: 'boolean' } } as const;
const COLUMNS = ['checked_at', 'provider', 'check', 'outcome', 'detail', 'last_swap_at'];

export async function phoneCommand(config: AdminClientSettings, args: string[]): Promise<string> {
  const { values: o, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  const [, action, id = ''] = positionals;
  const out = (json: Json, text: string) => (o.json ? JSON.stringify(json, null, 2) : text);
  const path = `/users/${encodeURIComponent(id)}`;
  switch (action) {
    case 'checks': {
      const risk = (await call(config, 'GET', `${path}/phone-checks`)) as Json & { checks: Json[] };
      const facts = `proven_at: ${risk.proven_at ?? '(created)'}  recycled_at: ${risk.recycled_at ?? '-'}  cleared_until: ${risk.cleared_until ?? '-'}`;
      return out(risk, `${facts}\n${table(risk.checks, COLUMNS) || '(no checks)'}`);
    }
    case 'clear': {
      const cleared = (await call(config, 'POST', `${path}/phone-risk/clear`, {})) as Json;
      return out(cleared, `cleared until ${cleared.cleared_until}`);
    }
    default:
      throw new Error(`unknown command "${positionals.join(' ')}"\n${PHONE_HELP}`);
  }
}
