import { parseArgs } from 'node:util';
import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import { call, type Json, listing } from './admin-http.ts';

// `callsign sms ...`: the SMS defence's traffic per country, and the breaker's override.

export const SMS_HELP = `  sms countries [--json]           codes sent and entered, refusals and the breaker, per country
  sms breaker COUNTRY open|closed|auto [--json]`;

interface Period {
  sent: number;
  verified: number;
  conversion: number | null;
  refused: Record<string, number>;
}

const percent = (x: number | null) => (x === null ? '-' : `${Math.round(x * 100)}%`);

/** Runs one `callsign sms` command; answers the text to print. */
export async function smsCommand(config: AdminClientSettings, args: string[]): Promise<string> {
  const { values: o, positionals } = parseArgs({
    args,
    options: { json: { type: 'boolean' } },
    allowPositionals: true,
  });
  const [, action, country, state] = positionals;
  const out = (json: Json | undefined, text: string) => (o.json ? JSON.stringify(json, null, 2) : text);
  if (action === 'countries') {
    const list = (await call(config, 'GET', '/sms/countries')) as { data: Json[] };
    const rows = list.data.map((c) => {
      const hour = c.last_hour as Period;
      const refused = Object.values(hour.refused).reduce((a, b) => a + b, 0);
      return {
        country: c.country,
        sent: hour.sent,
        verified: hour.verified,
        conversion: percent(hour.conversion),
        refused,
        breaker: c.breaker,
        override: c.override ?? '-',
      };
    });
    return out(
      list,
      listing(
        rows,
        ['country', 'sent', 'verified', 'conversion', 'refused', 'breaker', 'override'],
        'no traffic',
      ),
    );
  }
  if (action === 'breaker' && country && ['open', 'closed', 'auto'].includes(state ?? '')) {
    const path = `/sms/countries/${encodeURIComponent(country)}/breaker`;
    const answer = (await call(config, 'POST', path, { state })) as Json;
    return out(
      answer,
      `${answer.country}: ${answer.override ? `held ${answer.override}` : 'decided by its traffic'}`,
    );
  }
  throw new Error(`unknown command "${positionals.join(' ')}"\n${SMS_HELP}`);
}
