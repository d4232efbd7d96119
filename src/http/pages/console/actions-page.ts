import type { AdminAction } from '../../admin/admin-trail.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { consolePage, type Frame, table, when } from './layout.ts';

/** An action as the admin API answers it (JSON: the time as text). */
export type Action = Answered<typeof AdminAction>;

/** What an action was on: the account or client by name (linked), a search by its words, else its parameters. */
function actedOn(a: Action): string {
  const id = a.params.id;
  if (id && a.on && a.route.startsWith('/admin/v1/users/:id'))
    return `account <a href="/console/users/${encodeURIComponent(id)}">${esc(a.on)}</a>`;
  if (id && a.on && a.route.startsWith('/admin/v1/clients/:id'))
    return `client <a href="/console/clients/${encodeURIComponent(id)}">${esc(a.on)}</a>`;
  if (a.route === '/admin/v1/users' && a.method === 'GET')
    return a.params.q ? `search “${esc(a.params.q)}”` : 'the newest accounts';
  const params = Object.entries(a.params).map(([k, v]) => `${k} ${v}`);
  return esc(params.join(', ') || '–');
}

/** The operators' trail, a page at a time, newest first. */
export const actionsPage = (f: Frame, actions: Action[], pageSize: number) => {
  const last = actions.at(-1);
  const older =
    last && actions.length === pageSize
      ? `<p><a href="/console/actions?before=${last.id}">Older actions</a></p>`
      : '';
  return consolePage(
    'Actions',
    f,
    '<p>What was changed through the admin API or this console, and every search of accounts and look at an account, a KYC verification or a document photo.</p>' +
      table(
        ['When', 'By, from', 'Action', 'On', 'Answer', 'Request id'],
        actions.map((a) => [
          when(a.at),
          `${a.source === 'console' ? 'console' : 'admin API'}, ${esc(a.address)}`,
          `<code>${esc(a.method)} ${esc(a.route.replace(/^\/admin\/v1/, ''))}</code>`,
          actedOn(a),
          String(a.status),
          `<code>${esc(a.request_id)}</code>`,
        ]),
        'No actions yet.',
      ) +
      older,
  );
};
