import { EVENT_TYPES } from '../../../domain/webhooks/events.ts';
import type { AdminDelivery, AdminWebhookEndpoint } from '../../admin/responses.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import {
  checkbox,
  consolePage,
  dangerForm,
  type Frame,
  postForm,
  secretBox,
  statusFilters,
  table,
  text,
  when,
} from './layout.ts';

export type Endpoint = Answered<typeof AdminWebhookEndpoint> & { secret?: string };

export type Delivery = Answered<typeof AdminDelivery>;

const eventBoxes = (chosen: string[]) =>
  `<fieldset><legend>Events</legend>${checkbox('All events', 'events', '*', chosen.includes('*'))}<br>${EVENT_TYPES.map(
    (t) => checkbox(t, 'events', t, chosen.includes(t)),
  ).join('')}</fieldset>`;

export const endpointsPage = (f: Frame, endpoints: Endpoint[], draft: Record<string, string> = {}) =>
  consolePage(
    'Webhooks',
    f,
    table(
      ['URL', 'Events', 'State', ''],
      endpoints.map((e) => [
        `<a href="/console/webhooks/${e.id}">${esc(e.url)}</a>${e.description ? `<br><small>${esc(e.description)}</small>` : ''}`,
        e.events.map(esc).join(', '),
        e.enabled ? 'enabled' : 'disabled',
        `<a href="/console/webhooks/${e.id}">Deliveries and settings</a>`,
      ]),
      'No webhook endpoints yet.',
    ) +
      `<h2>Add an endpoint</h2>${postForm(
        '/console/webhooks',
        f.csrf,
        text('URL', 'url', draft.url, 'required placeholder="https://"') +
          eventBoxes(['*']) +
          text('Description', 'description', draft.description, 'maxlength="200"'),
        'Add endpoint',
        'block',
      )}`,
  );

export const endpointSecretPage = (f: Frame, e: Endpoint, title: string) =>
  consolePage(
    title,
    f,
    `<p>${esc(e.url)}</p>${secretBox('Signing secret', e.secret ?? '')}${
      e.previous_secret_expires_at
        ? `<p>The previous secret also signs until ${when(e.previous_secret_expires_at)}.</p>`
        : ''
    }<p><a href="/console/webhooks/${e.id}">Back to the endpoint</a></p>`,
  );

export const endpointPage = (f: Frame, e: Endpoint, deliveries: Delivery[], status: string | undefined) => {
  const base = `/console/webhooks/${e.id}`;
  return consolePage(
    'Webhook endpoint',
    f,
    `${postForm(
      base,
      f.csrf,
      text('URL', 'url', e.url, 'required') +
        eventBoxes(e.events) +
        text('Description', 'description', e.description ?? '', 'maxlength="200"') +
        `<p>${checkbox('Enabled', 'enabled', 'true', e.enabled)}</p>`,
      'Save',
      'block',
    )}
<p>${postForm(`${base}/test`, f.csrf, '', 'Send test event')} ${postForm(`${base}/roll`, f.csrf, '', 'Roll secret')} ${dangerForm(
      `${base}/delete`,
      f.csrf,
      '',
      'Delete endpoint',
    )}</p>
<h2>Delivery log</h2><p>${statusFilters(base, status)}</p>${table(
      ['Event', 'Status', 'Attempts', 'Next attempt', 'Response', 'Latency', 'Error', 'Created', ''],
      deliveries.map((d) => [
        `${esc(d.event_type)}<br><small><code>${esc(d.event_id)}</code></small>`,
        esc(d.status),
        String(d.attempts),
        when(d.next_attempt_at),
        d.last_status_code === null ? '–' : String(d.last_status_code),
        d.last_latency_ms === null ? '–' : `${d.last_latency_ms} ms`,
        esc(d.last_error ?? ''),
        when(d.created_at),
        postForm(
          `/console/deliveries/${d.id}/replay`,
          f.csrf,
          `<input type="hidden" name="endpoint" value="${e.id}">`,
          'Replay',
        ),
      ]),
      'No deliveries yet.',
    )}`,
  );
};
