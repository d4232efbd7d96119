import { parseArgs } from 'node:util';
import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import { ACTION_COLUMNS, exportActions } from './actions-export-command.ts';
import { call, type Json, labelled, listing, table } from './admin-http.ts';
import {
  BRANDING_HELP,
  BRANDING_OPTIONS,
  brandingFields,
  CLIENT_COLUMNS,
  LOGOUT_COLUMNS,
} from './client-options.ts';
import { initialTokenCommand, rotateClientSecret } from './client-secret-command.ts';

// `callsign clients|api-keys|keys|actions ...`

export const ADMIN_HELP = `  clients create --name NAME --redirect-uri URI [--redirect-uri URI ...] [--scope "openid profile"]
                 [--grant-type authorization_code --grant-type refresh_token] [--public | --auth-method M]
                 [--first-party] [--backchannel-logout-uri URI] [--post-logout-redirect-uri URI ...]
                 ${BRANDING_HELP} [--json]
  clients list [--json]
  clients show CLIENT_ID [--json]
  clients update CLIENT_ID [--name NAME] [--redirect-uri URI ...] [--scope S] [--grant-type G ...]
                 [--first-party | --third-party] [--backchannel-logout-uri URI | --no-backchannel-logout]
                 [--post-logout-redirect-uri URI ... | --no-post-logout-redirect]
                 ${BRANDING_HELP} [--json]
  clients delete CLIENT_ID
  clients rotate-secret CLIENT_ID [--grace SECONDS] [--json]
  clients initial-token [--expires-in SECONDS] [--uses N] [--json]   (clients register themselves with it)
  clients logouts CLIENT_ID [--status pending|delivered|failed] [--limit N] [--before TIME] [--json]
  clients replay-logout LOGOUT_ID [--json]
  api-keys create --name NAME [--json]
  api-keys list [--json]
  api-keys revoke KEY_ID
  keys rotate [--now] [--json]
  keys reencrypt [--json]
  keys pin-pepper [--json]
  actions list [--limit N] [--before ID] [--json]
  actions export                   the whole trail as JSON Lines, oldest first`;

const OPTIONS = {
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  scope: { type: 'string' },
  'grant-type': { type: 'string', multiple: true },
  'auth-method': { type: 'string' },
  public: { type: 'boolean' },
  'first-party': { type: 'boolean' },
  'third-party': { type: 'boolean' },
  'backchannel-logout-uri': { type: 'string' },
  'no-backchannel-logout': { type: 'boolean' },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  'no-post-logout-redirect': { type: 'boolean' },
  ...BRANDING_OPTIONS,
  now: { type: 'boolean' },
  status: { type: 'string' },
  limit: { type: 'string' },
  before: { type: 'string' },
  json: { type: 'boolean' },
  grace: { type: 'string' },
} as const;

/** Runs one admin command; answers the text to print. */
export async function adminCommand(config: AdminClientSettings, args: string[]): Promise<string> {
  // Its options are its own.
  if (args[0] === 'clients' && args[1] === 'initial-token') return initialTokenCommand(config, args.slice(2));
  const { values: o, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  const [group, action, id] = positionals;
  const out: Output = (json, text) => (o.json ? JSON.stringify(json, null, 2) : text);
  switch (`${group} ${action}`) {
    case 'clients create':
    case 'clients list':
    case 'clients show':
    case 'clients update':
    case 'clients delete':
    case 'clients logouts':
    case 'clients replay-logout':
    case 'clients rotate-secret':
      return clientCommand(config, action, id, o, out);
    case 'actions export':
      return exportActions(config);
    case 'api-keys create': {
      const k = (await call(config, 'POST', '/api-keys', { name: o.name })) as Json;
      return out(k, `id: ${k.id}\nkey: ${k.key}   (shown once: keep it now)`);
    }
    case 'api-keys list': {
      const list = (await call(config, 'GET', '/api-keys')) as { data: Json[] };
      return out(
        list,
        listing(list.data, ['id', 'prefix', 'name', 'last_used_at', 'revoked_at'], 'no API keys'),
      );
    }
    case 'api-keys revoke':
      await call(config, 'DELETE', `/api-keys/${encodeURIComponent(id ?? '')}`);
      return out({ revoked: id }, `revoked API key ${id}`);
    case 'keys rotate': {
      // Published now, signing minutes later (or at once with --now).
      const k = (await call(config, 'POST', '/keys/rotate', o.now ? { immediate: true } : undefined)) as Json;
      return out(
        k,
        `new key ${k.kid} is published and signs from ${k.signs_from}; the old one signs until then and stays in JWKS until its tokens expire`,
      );
    }
    case 'keys reencrypt': {
      // After KEY_ENCRYPTION_KEY changed, with the old one as KEY_ENCRYPTION_KEY_FALLBACK.
      const counts = (await call(config, 'POST', '/keys/reencrypt')) as Record<string, Json>;
      const names: Record<string, string> = {
        signing_keys: 'signing keys',
        webhook_secrets: 'webhook secrets',
        kyc_photos: 'KYC photos',
        recovery_code_sets: 'recovery-code keys',
        operator_client_keys: 'the mobile operators’ client key',
        ssf_push_headers: 'security-event push headers',
      };
      const lines = Object.entries(counts).map(
        ([kind, n]) =>
          `${names[kind] ?? kind}: ${n.resealed} sealed again with KEY_ENCRYPTION_KEY${n.unreadable ? `, ${n.unreadable} that neither key opens (left as they are)` : ''}`,
      );
      return out(counts, lines.join('\n'));
    }
    case 'keys pin-pepper': {
      // While PIN_PEPPER changes, with the old one as PIN_PEPPER_FALLBACK.
      const n = (await call(config, 'GET', '/keys/pin-pepper')) as Record<string, number>;
      return out(
        n,
        [
          `PINs of live accounts hashed with PIN_PEPPER: ${n.current}`,
          `with PIN_PEPPER_FALLBACK: ${n.fallback}`,
          `before hashes named their pepper (checked with either): ${n.unnamed}`,
          `with another pepper (their owners must reset their PIN): ${n.other}`,
        ].join('\n'),
      );
    }
    case 'actions list': {
      // The operators' trail, newest first; --before takes the id of the last line of a page.
      const query = new URLSearchParams({
        ...(o.limit ? { limit: o.limit } : {}),
        ...(o.before ? { before: o.before } : {}),
      });
      const list = (await call(config, 'GET', `/actions${query.size ? `?${query}` : ''}`)) as {
        data: Json[];
      };
      const rows = list.data.map((a) => ({
        ...a,
        params:
          Object.entries(a.params as Json)
            .map(([k, v]) => `${k}=${v}`)
            .join(',') || '-',
      }));
      return out(list, listing(rows, ACTION_COLUMNS, 'no actions'));
    }
    default:
      throw new Error(`unknown command "${positionals.join(' ')}"\n${ADMIN_HELP}`);
  }
}

/** The parsed options of an admin command. */
type Options = ReturnType<
  typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true }>
>['values'];
/** The command's answer: its JSON with --json, its text otherwise. */
type Output = (json: Json | undefined, text: string) => string;

/** `callsign clients <action>`: OAuth clients and the back-channel logouts sent to them. */
async function clientCommand(
  config: AdminClientSettings,
  action: string,
  id: string | undefined,
  o: Options,
  out: Output,
) {
  switch (`clients ${action}`) {
    case 'clients create': {
      const c = (await call(config, 'POST', '/clients', {
        client_name: o.name,
        redirect_uris: o['redirect-uri'] ?? [],
        ...(o.scope ? { scope: o.scope } : {}),
        ...(o['grant-type'] ? { grant_types: o['grant-type'] } : {}),
        token_endpoint_auth_method: o.public ? 'none' : (o['auth-method'] ?? 'client_secret_basic'),
        first_party: o['first-party'] === true,
        ...(o['backchannel-logout-uri'] ? { backchannel_logout_uri: o['backchannel-logout-uri'] } : {}),
        ...(o['post-logout-redirect-uri']
          ? { post_logout_redirect_uris: o['post-logout-redirect-uri'] }
          : {}),
        ...brandingFields(o),
      })) as Json;
      const secret = c.client_secret ? `\nclient_secret: ${c.client_secret}   (shown once: keep it now)` : '';
      return out(c, `client_id: ${c.client_id}${secret}`);
    }
    case 'clients list': {
      const list = (await call(config, 'GET', '/clients')) as { data: Json[] };
      return out(list, listing(list.data, CLIENT_COLUMNS.slice(0, 5), 'no clients'));
    }
    case 'clients show': {
      const c = (await call(config, 'GET', `/clients/${encodeURIComponent(id ?? '')}`)) as Json;
      return out(c, labelled(c, CLIENT_COLUMNS));
    }
    case 'clients update': {
      if (o['first-party'] && o['third-party'])
        throw new Error('--first-party and --third-party exclude each other');
      if (o['backchannel-logout-uri'] !== undefined && o['no-backchannel-logout'])
        throw new Error('--backchannel-logout-uri and --no-backchannel-logout exclude each other');
      if (o['post-logout-redirect-uri'] && o['no-post-logout-redirect'])
        throw new Error('--post-logout-redirect-uri and --no-post-logout-redirect exclude each other');
      const c = (await call(config, 'PATCH', `/clients/${encodeURIComponent(id ?? '')}`, {
        ...(o.name !== undefined ? { client_name: o.name } : {}),
        ...(o['redirect-uri'] ? { redirect_uris: o['redirect-uri'] } : {}),
        ...(o.scope !== undefined ? { scope: o.scope } : {}),
        ...(o['grant-type'] ? { grant_types: o['grant-type'] } : {}),
        ...(o['first-party'] ? { first_party: true } : o['third-party'] ? { first_party: false } : {}),
        ...(o['backchannel-logout-uri'] !== undefined
          ? { backchannel_logout_uri: o['backchannel-logout-uri'] }
          : o['no-backchannel-logout']
            ? { backchannel_logout_uri: null }
            : {}),
        // The list given replaces the registered one; --no-post-logout-redirect empties it.
        ...(o['post-logout-redirect-uri']
          ? { post_logout_redirect_uris: o['post-logout-redirect-uri'] }
          : o['no-post-logout-redirect']
            ? { post_logout_redirect_uris: [] }
            : {}),
        ...brandingFields(o),
      })) as Json;
      return out(c, labelled(c, CLIENT_COLUMNS));
    }
    case 'clients rotate-secret': {
      const rolled = await rotateClientSecret(config, id ?? '', o.grace);
      return out(rolled.json, rolled.text);
    }
    case 'clients delete':
      await call(config, 'DELETE', `/clients/${encodeURIComponent(id ?? '')}`);
      return out({ deleted: id }, `deleted client ${id}`);
    case 'clients logouts': {
      const query = new URLSearchParams({
        ...(o.status ? { status: o.status } : {}),
        ...(o.limit ? { limit: o.limit } : {}),
        ...(o.before ? { before: o.before } : {}),
      });
      const path = `/clients/${encodeURIComponent(id ?? '')}/backchannel-logouts?${query}`;
      const list = (await call(config, 'GET', path)) as { data: Json[] };
      return out(list, listing(list.data, LOGOUT_COLUMNS, 'no back-channel logouts'));
    }
    case 'clients replay-logout': {
      const path = `/backchannel-logouts/${encodeURIComponent(id ?? '')}/replay`;
      const b = (await call(config, 'POST', path, {})) as Json;
      return out(b, table([b], LOGOUT_COLUMNS));
    }
    default:
      throw new Error(`unknown command "clients ${action}"\n${ADMIN_HELP}`);
  }
}
