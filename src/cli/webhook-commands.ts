import { parseArgs } from 'node:util';
import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import { call, type Json, listing, table } from './admin-http.ts';

// `callsign webhooks ...`

export const WEBHOOKS_HELP = `  webhooks create --url URL [--event TYPE ...] [--description TEXT] [--disabled] [--json]
  webhooks list [--json]
  webhooks show ENDPOINT_ID [--json]
  webhooks update ENDPOINT_ID [--url URL] [--event TYPE ... | --all-events] [--description TEXT]
                  [--enable | --disable] [--json]
  webhooks roll-secret ENDPOINT_ID [--expires-in SECONDS] [--json]
  webhooks delete ENDPOINT_ID
  webhooks deliveries ENDPOINT_ID [--status pending|delivered|failed] [--limit N] [--json]
  webhooks delivery DELIVERY_ID [--json]
  webhooks replay DELIVERY_ID [--json]`;

const OPTIONS = {
  url: { type: 'string' },
  event: { type: 'string', multiple: true },
  'all-events': { type: 'boolean' },
  description: { type: 'string' },
  enable: { type: 'boolean' },
  disable: { type: 'boolean' },
  disabled: { type: 'boolean' },
  'expires-in': { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const ENDPOINT_COLUMNS = ['id', 'enabled', 'url', 'events'];
const DELIVERY_COLUMNS = [
  'id',
  'event_type',
  'status',
  'attempts',
  'last_status_code',
  'next_attempt_at',
  'last_error',
];

export async function webhookCommand(config: AdminClientSettings, args: string[]): Promise<string> {
  const { values: o, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  const [, action, id = ''] = positionals;
  const out = (json: Json | undefined, text: string) => (o.json ? JSON.stringify(json, null, 2) : text);
  const shown = (e: Json) =>
    `${table([e], ENDPOINT_COLUMNS)}\nsecret: ${e.secret}   (shown once: keep it now)`;
  const path = encodeURIComponent(id);
  switch (action) {
    case 'create': {
      const e = (await call(config, 'POST', '/webhook-endpoints', {
        url: o.url,
        ...(o.event ? { events: o.event } : {}),
        ...(o.description !== undefined ? { description: o.description } : {}),
        enabled: o.disabled !== true,
      })) as Json;
      return out(e, shown(e));
    }
    case 'list': {
      const list = (await call(config, 'GET', '/webhook-endpoints')) as { data: Json[] };
      return out(list, listing(list.data, ENDPOINT_COLUMNS, 'no webhook endpoints'));
    }
    case 'show': {
      const e = (await call(config, 'GET', `/webhook-endpoints/${path}`)) as Json;
      return out(e, table([e], [...ENDPOINT_COLUMNS, 'description', 'previous_secret_expires_at']));
    }
    case 'update': {
      if (o.enable && o.disable) throw new Error('--enable and --disable exclude each other');
      const e = (await call(config, 'PATCH', `/webhook-endpoints/${path}`, {
        ...(o.url !== undefined ? { url: o.url } : {}),
        ...(o['all-events'] ? { events: ['*'] } : o.event ? { events: o.event } : {}),
        ...(o.description !== undefined ? { description: o.description } : {}),
        ...(o.enable ? { enabled: true } : o.disable ? { enabled: false } : {}),
      })) as Json;
      return out(e, table([e], ENDPOINT_COLUMNS));
    }
    case 'roll-secret': {
      const e = (await call(config, 'POST', `/webhook-endpoints/${path}/roll-secret`, {
        ...(o['expires-in'] !== undefined ? { expires_in: Number(o['expires-in']) } : {}),
      })) as Json;
      return out(e, `${shown(e)}\nthe previous secret also signs until ${e.previous_secret_expires_at}`);
    }
    case 'delete':
      await call(config, 'DELETE', `/webhook-endpoints/${path}`);
      return out({ deleted: id }, `deleted webhook endpoint ${id}`);
    case 'deliveries': {
      const query = new URLSearchParams({
        ...(o.status ? { status: o.status } : {}),
        ...(o.limit ? { limit: o.limit } : {}),
      });
      const list = (await call(config, 'GET', `/webhook-endpoints/${path}/deliveries?${query}`)) as {
        data: Json[];
      };
      return out(list, listing(list.data, DELIVERY_COLUMNS, 'no deliveries'));
    }
    case 'delivery':
    case 'replay': {
      const d = (await (action === 'replay'
        ? call(config, 'POST', `/deliveries/${path}/replay`, {})
        : call(config, 'GET', `/deliveries/${path}`))) as Json;
      const attempts = table(d.attempt_log as Json[], ['started_at', 'status_code', 'latency_ms', 'error']);
      return out(d, `${table([d], DELIVERY_COLUMNS)}\nattempts:\n${attempts || '(none yet)'}`);
    }
    default:
      throw new Error(`unknown command "${positionals.join(' ')}"\n${WEBHOOKS_HELP}`);
  }
}
