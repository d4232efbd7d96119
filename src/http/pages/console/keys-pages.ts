import type { AdminApiKey } from '../../admin/responses.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { consolePage, dangerForm, type Frame, postForm, secretBox, table, text, when } from './layout.ts';

export type ApiKey = Answered<typeof AdminApiKey> & { key?: string };

export const keysPage = (f: Frame, keys: ApiKey[]) =>
  consolePage(
    'API keys',
    f,
    table(
      ['Name', 'Prefix', 'Created', 'Last used', 'State', ''],
      keys.map((k) => [
        esc(k.name),
        `<code>${esc(k.prefix)}…</code>`,
        when(k.created_at),
        when(k.last_used_at),
        k.revoked_at ? `revoked ${when(k.revoked_at)}` : 'active',
        k.revoked_at
          ? ''
          : dangerForm(
              `/console/api-keys/${encodeURIComponent(k.id)}/revoke`,
              f.csrf,
              '',
              `Revoke ${k.name}`,
            ),
      ]),
      'No API keys yet.',
    ) +
      `<h2>Create an API key</h2>${postForm('/console/api-keys', f.csrf, text('Name', 'name', '', 'required maxlength="100"'), 'Create', 'block')}`,
  );

export const keyCreatedPage = (f: Frame, k: ApiKey) =>
  consolePage(
    'API key created',
    f,
    `<p>${esc(k.name)}</p>${secretBox('API key', k.key ?? '')}<p><a href="/console/api-keys">Back to API keys</a></p>`,
  );
