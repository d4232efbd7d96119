import type { AdminAction } from '../../admin/responses.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { consolePage, type Frame, table, when } from './layout.ts';

/** An action as the admin API answers it (JSON: the time as text). */
export type Action = Answered<typeof AdminAction>;

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
    '<p>What was changed through the admin API or this console, and every look at an account, a KYC verification or a document photo.</p>' +
      table(
        ['When', 'By', 'From', 'Action', 'On', 'Answer', 'Request id'],
        actions.map((a) => [
          when(a.at),
          a.source === 'console' ? 'console' : 'admin API',
          esc(a.address),
          `<code>${esc(a.method)} ${esc(a.route.replace(/^\/admin\/v1/, ''))}</code>`,
          esc(
            Object.entries(a.params)
              .map(([k, v]) => `${k} ${v}`)
              .join(', ') || '–',
          ),
          String(a.status),
          `<code>${esc(a.request_id)}</code>`,
        ]),
        'No actions yet.',
      ) +
      older,
  );
};
