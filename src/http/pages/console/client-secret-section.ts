import { esc } from '../html.ts';
import { consolePage, dangerForm, type Frame, postForm, secretBox, text, when } from './layout.ts';

// A confidential client's secret on its page: roll it, with a grace in which the old one still works, and the
// new one shown once.

/** The graces offered, an hour first: long enough for an app's servers to take the new secret. */
const GRACES: Array<[string, string]> = [
  ['3600', 'an hour'],
  ['86400', 'a day'],
  ['604800', 'a week'],
  ['0', 'none: the old secret stops at once'],
];

/** The grace of the last roll, while it runs: the old secret still works. */
const graceRunning = (f: Frame, previousExpiresAt: string | null) =>
  previousExpiresAt && Date.parse(previousExpiresAt) > f.now.getTime()
    ? `<p class="notice">The secret before the last roll still works until ${when(previousExpiresAt)}.</p>`
    : '';

export const clientSecretSection = (
  f: Frame,
  c: { client_id: string; token_endpoint_auth_method: string; previous_secret_expires_at: string | null },
) =>
  c.token_endpoint_auth_method === 'none'
    ? ''
    : `<h2>Secret</h2>${graceRunning(f, c.previous_secret_expires_at)}<p>A new secret is shown once. Give the old one a grace while the app's servers change to the new one.</p>${dangerForm(
        `/console/clients/${encodeURIComponent(c.client_id)}/secret`,
        f.csrf,
        `<label for="grace_seconds">The old secret keeps working for</label><select id="grace_seconds" name="grace_seconds">${GRACES.map(
          ([value, label], i) =>
            `<option value="${value}"${i === 0 ? ' selected' : ''}>${esc(label)}</option>`,
        ).join('')}</select> `,
        'Roll secret',
      )}`;

export const clientSecretRolledPage = (
  f: Frame,
  c: { client_id: string; client_secret: string; previous_secret_expires_at: string | null },
) =>
  consolePage(
    'New client secret',
    f,
    `${secretBox('Client secret', c.client_secret)}<p>${
      c.previous_secret_expires_at
        ? `The old secret works until ${when(c.previous_secret_expires_at)}.`
        : 'The old secret stopped working.'
    }</p><p><a href="/console/clients/${encodeURIComponent(c.client_id)}">Back to the client</a></p>`,
  );

/** On the clients page: an initial access token, by which clients register themselves (RFC 7591). */
export const initialTokenSection = (f: Frame) =>
  `<h2>Clients that register themselves</h2><p>An initial access token lets an app or agent register its own client at <code>/oauth/register</code>. It is shown once and works for a day.</p>${postForm(
    '/console/initial-access-tokens',
    f.csrf,
    text('Registrations it allows', 'uses', '1', 'inputmode="numeric" pattern="[0-9]{1,4}" required'),
    'Make an initial access token',
    'block',
  )}`;

export const initialTokenPage = (f: Frame, t: { token: string; expires_at: string; uses: number }) =>
  consolePage(
    'Initial access token',
    f,
    `${secretBox('Initial access token', t.token)}<p>It registers ${t.uses} client${t.uses === 1 ? '' : 's'} until ${when(t.expires_at)}: give it to the app's developer, who sends it as a bearer token to <code>/oauth/register</code>.</p><p><a href="/console/clients">Back to clients</a></p>`,
  );
