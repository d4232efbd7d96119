import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import { call, fetchAdmin, type Json, listing, table } from './admin-http.ts';

// `callsign kyc ...`: the review queue of the manual provider.

export const KYC_HELP = `  kyc list [--status pending|verified|rejected] [--json]
  kyc show VERIFICATION_ID [--save-photos DIR] [--json]
  kyc approve VERIFICATION_ID [--json]
  kyc reject VERIFICATION_ID --reason document_unreadable|document_expired|data_mismatch|underage|suspected_fraud|other
             [--message TEXT] [--json]`;

const OPTIONS = {
  status: { type: 'string' },
  'save-photos': { type: 'string' },
  reason: { type: 'string' },
  message: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const COLUMNS = ['id', 'status', 'level', 'country', 'document_kind', 'submitted_at', 'reason'];
const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

export async function kycCommand(config: AdminClientSettings, args: string[]): Promise<string> {
  const { values: o, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  const [, action, id = ''] = positionals;
  const out = (json: Json | undefined, text: string) => (o.json ? JSON.stringify(json, null, 2) : text);
  const path = `/kyc/verifications/${encodeURIComponent(id)}`;
  switch (action) {
    case 'list': {
      const list = (await call(
        config,
        'GET',
        `/kyc/verifications?${new URLSearchParams({ status: o.status ?? 'pending' })}`,
      )) as { data: Json[] };
      return out(list, listing(list.data, COLUMNS, 'no verifications'));
    }
    case 'show': {
      const v = (await call(config, 'GET', path)) as Json & { photos: Json[]; user: Json | null };
      const lines = [
        table([v], [...COLUMNS, 'birthday']),
        `user: ${v.user ? table([v.user], ['id', 'phone', 'handle', 'name']) : '(deleted)'}`,
        `photos:\n${table(v.photos, ['id', 'kind', 'content_type', 'size']) || '(none)'}`,
      ];
      if (o['save-photos']) {
        mkdirSync(o['save-photos'], { recursive: true });
        for (const p of v.photos) {
          const res = await fetchAdmin(config, 'GET', String(p.url).replace(/^\/admin\/v1/, ''));
          const file = join(
            o['save-photos'],
            `${p.kind}-${p.id}.${EXTENSIONS[String(p.content_type)] ?? 'bin'}`,
          );
          writeFileSync(file, Buffer.from(await res.arrayBuffer()), { mode: 0o600 });
          lines.push(`saved ${file}`);
        }
      }
      return out(v, lines.join('\n'));
    }
    case 'approve': {
      const v = (await call(config, 'POST', `${path}/approve`, {})) as Json;
      return out(v, `verified ${v.id}`);
    }
    case 'reject': {
      const v = (await call(config, 'POST', `${path}/reject`, {
        reason: o.reason,
        ...(o.message !== undefined ? { message: o.message } : {}),
      })) as Json;
      return out(v, `rejected ${v.id} (${v.reason})`);
    }
    default:
      throw new Error(`unknown command "${positionals.join(' ')}"\n${KYC_HELP}`);
  }
}
