import { parseArgs } from 'node:util';
import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import { call, type Json, labelled, listing } from './admin-http.ts';
import { USERS_IMPORT_HELP } from './import-help.ts';

// `callsign users ...`: find and look at accounts, lock and unlock them, and bring accounts from elsewhere.

export const USERS_HELP = `  users list [--q TEXT] [--kyc-status none|pending|verified|rejected] [--limit N] [--cursor C] [--json]
                                   live accounts, newest first: TEXT finds an id, a phone, a handle, an
                                   imported id or a part of a name
  users show USER_ID [--json]
  users lock USER_ID [--json]      its sessions end; sign-in and PIN reset are refused until unlocked
  users unlock USER_ID [--json]
${USERS_IMPORT_HELP}`;

const OPTIONS = {
  q: { type: 'string' },
  'kyc-status': { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  json: { type: 'boolean' },
} as const;

const COLUMNS = ['id', 'phone', 'handle', 'name', 'kyc_status', 'admin_locked_at', 'created_at'];
const DETAIL = [...COLUMNS, 'email', 'external_id', 'pin_set', 'pin_locked_until', 'failed_pin_attempts'];

export async function usersCommand(config: AdminClientSettings, args: string[]): Promise<string> {
  // The import's readers (phone numbers, formats) load only for an import.
  if (args[1] === 'import') return (await import('./import-commands.ts')).importUsersCommand(config, args);
  const { values: o, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  const [, action, id = ''] = positionals;
  const out = (json: Json | undefined, text: string) => (o.json ? JSON.stringify(json, null, 2) : text);
  const path = `/users/${encodeURIComponent(id)}`;
  switch (action) {
    case 'list': {
      const asked = new URLSearchParams(
        Object.entries({ q: o.q, kyc_status: o['kyc-status'], limit: o.limit, cursor: o.cursor }).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
      const page = (await call(config, 'GET', `/users?${asked}`)) as {
        data: Json[];
        next_cursor: string | null;
      };
      const more = page.next_cursor ? `\nmore: --cursor ${page.next_cursor}` : '';
      return out(page, `${listing(page.data, COLUMNS, 'no users')}${more}`);
    }
    case 'show': {
      const user = (await call(config, 'GET', path)) as Json;
      return out(user, `${labelled(user, DETAIL)}\nsessions: ${user.sessions_total ?? 0}`);
    }
    case 'lock':
    case 'unlock': {
      const user = (await call(config, 'POST', `${path}/${action}`)) as Json;
      return out(user, action === 'lock' ? `locked ${user.id}; its sessions ended` : `unlocked ${user.id}`);
    }
    default:
      throw new Error(`unknown command "${positionals.join(' ')}"\n${USERS_HELP}`);
  }
}
