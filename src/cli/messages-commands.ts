import { parseArgs } from 'node:util';
import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import { call, type Json, listing } from './admin-http.ts';

// `callsign messages ...`: the messages sent to phones, their attempts and their delivery.

export const MESSAGES_HELP = `  messages list [--phone E164] [--status S] [--provider NAME] [--limit N] [--json]
                                   the latest messages, newest first
  messages show ID [--json]        one message: each attempt, and its delivery`;

/** Runs one `callsign messages` command; answers the text to print. */
export async function messagesCommand(config: AdminClientSettings, args: string[]): Promise<string> {
  const { values: o, positionals } = parseArgs({
    args,
    options: {
      json: { type: 'boolean' },
      phone: { type: 'string' },
      status: { type: 'string' },
      provider: { type: 'string' },
      limit: { type: 'string' },
    },
    allowPositionals: true,
  });
  const [, action, id] = positionals;
  const out = (json: Json, text: string) => (o.json ? JSON.stringify(json, null, 2) : text);
  if (action === 'list') {
    const query = new URLSearchParams();
    for (const name of ['phone', 'status', 'provider', 'limit'] as const) {
      const value = o[name];
      if (value) query.set(name, value);
    }
    const list = (await call(config, 'GET', `/messages${query.size ? `?${query}` : ''}`)) as { data: Json[] };
    const rows = list.data.map((m) => ({
      id: m.id,
      created_at: m.created_at,
      phone: m.phone,
      channel: m.channel,
      provider: m.provider ?? '-',
      status: m.status,
    }));
    return out(
      list,
      listing(rows, ['id', 'created_at', 'phone', 'channel', 'provider', 'status'], 'no messages'),
    );
  }
  if (action === 'show' && id) {
    const m = (await call(config, 'GET', `/messages/${encodeURIComponent(id)}`)) as Json;
    const attempts = (m.attempts as Json[]).map(
      (a, i) =>
        `  ${i + 1}. ${a.provider} (${a.channel}): ${a.ok ? 'taken' : `failed: ${a.error}`}, ${a.ms} ms`,
    );
    const history = (m.history as Json[]).map((h) => `  ${h.at}  ${h.status}`);
    const text = [
      `${m.id}: a ${m.kind} to ${m.phone} (${m.country ?? '-'}) by ${m.channel}, ${m.status}`,
      'attempts:',
      ...attempts,
      'delivery:',
      ...history,
    ].join('\n');
    return out(m, text);
  }
  throw new Error(`unknown command "${positionals.join(' ')}"\n${MESSAGES_HELP}`);
}
