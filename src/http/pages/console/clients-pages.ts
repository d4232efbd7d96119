import { OAUTH_SCOPES } from '../../../domain/clients/client-rules.ts';
import type { AdminClient } from '../../admin/client-responses.ts';
import type { AdminBackchannelLogout } from '../../admin/responses.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { clientSecretSection, initialTokenSection } from './client-secret-section.ts';
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

export type Client = Answered<typeof AdminClient> & { client_secret?: string };

/** How a client authenticates at the token endpoint, in words. */
const AUTH_METHODS: Record<string, string> = {
  none: 'Public: PKCE, no secret',
  client_secret_basic: 'Secret (HTTP Basic)',
  client_secret_post: 'Secret (in the form)',
  private_key_jwt: 'Key (private_key_jwt)',
};
export const authMethod = (method: string) => AUTH_METHODS[method] ?? method;

/** How the client shows itself on the sign-in and consent pages. */
const branding = (
  v: Partial<Record<'logo_uri' | 'client_uri' | 'policy_uri' | 'tos_uri' | 'brand_color', string | null>>,
) =>
  `<fieldset><legend>On the sign-in pages (optional)</legend>${text('Logo URL (https; JPEG, PNG or WebP, fetched once)', 'logo_uri', v.logo_uri ?? '', 'maxlength="2048" inputmode="url"')}${text('Home page URL', 'client_uri', v.client_uri ?? '', 'maxlength="2048" inputmode="url"')}${text('Privacy policy URL', 'policy_uri', v.policy_uri ?? '', 'maxlength="2048" inputmode="url"')}${text('Terms of service URL', 'tos_uri', v.tos_uri ?? '', 'maxlength="2048" inputmode="url"')}${text('Brand colour (#rrggbb)', 'brand_color', v.brand_color ?? '', 'pattern="#[0-9a-fA-F]{6}" maxlength="7"')}</fieldset>`;

/** A back-channel logout as the admin API shows it. */
export type Logout = Answered<typeof AdminBackchannelLogout>;

const scopeBoxes = (chosen: string[]) =>
  `<fieldset><legend>Scopes</legend>${OAUTH_SCOPES.map((s) => checkbox(s, 'scope', s, chosen.includes(s))).join('')}</fieldset>`;

/** Where the client is told of its ended sessions; empty for none. */
const logoutUri = (value: string | null | undefined) =>
  text(
    'Back-channel logout URI (optional; told of each ended session)',
    'backchannel_logout_uri',
    value ?? '',
    'maxlength="2048"',
  );

const uris = (value: string) =>
  `<label for="redirect_uris">Redirect URIs (one per line)</label><textarea id="redirect_uris" name="redirect_uris" rows="3" required>${esc(value)}</textarea>`;

/** Where the browser may go back after a logout the client asks for; none: a "signed out" page. */
const logoutRedirects = (value: string) =>
  `<label for="post_logout_redirect_uris">Post-logout redirect URIs (optional, one per line)</label><textarea id="post_logout_redirect_uris" name="post_logout_redirect_uris" rows="2">${esc(value)}</textarea>`;

export const clientsPage = (f: Frame, clients: Client[], draft: Record<string, string> = {}) =>
  consolePage(
    'Clients',
    f,
    table(
      ['Name', 'Client ID', 'Authentication', 'Scopes', 'First party', 'Redirect URIs', ''],
      clients.map((c) => [
        `<a href="/console/clients/${encodeURIComponent(c.client_id)}">${esc(c.client_name)}</a>`,
        `<code>${esc(c.client_id)}</code>`,
        esc(authMethod(c.token_endpoint_auth_method)),
        esc(c.scope),
        c.first_party ? 'yes' : 'no',
        c.redirect_uris.map(esc).join('<br>'),
        `<a href="/console/clients/${encodeURIComponent(c.client_id)}">Edit</a>`,
      ]),
      'No clients yet.',
    ) +
      `<h2>Register a client</h2>${postForm(
        '/console/clients',
        f.csrf,
        text('Name', 'client_name', draft.client_name, 'required maxlength="100"') +
          uris(draft.redirect_uris ?? '') +
          scopeBoxes((draft.scope ?? 'openid profile phone').split(' ')) +
          `<label for="auth">Authentication</label><select id="auth" name="token_endpoint_auth_method">
<option value="client_secret_basic">Confidential: client_secret_basic</option>
<option value="client_secret_post">Confidential: client_secret_post</option>
<option value="none">Public (PKCE only, no secret)</option></select>
<p>${checkbox('First party (skips the consent screen)', 'first_party', 'true', false)}</p>` +
          logoutRedirects(draft.post_logout_redirect_uris ?? '') +
          logoutUri(draft.backchannel_logout_uri) +
          branding(draft),
        'Register',
        'block',
      )}${initialTokenSection(f)}`,
  );

export const clientCreatedPage = (f: Frame, c: Client) =>
  consolePage(
    'Client registered',
    f,
    `<p>Client ID: <code id="client-id">${esc(c.client_id)}</code></p>${
      c.client_secret ? secretBox('Client secret', c.client_secret) : '<p>A public client has no secret.</p>'
    }<p><a href="/console/clients">Back to clients</a></p>`,
  );

/** What the client was told of its ended sessions, with "send again" for a logout it missed. */
const logoutLog = (f: Frame, c: Client, logouts: Logout[], status: string | undefined) => {
  const base = `/console/clients/${encodeURIComponent(c.client_id)}`;
  return `<h2>Back-channel logouts</h2><p>${statusFilters(base, status)}</p>${table(
    ['Session', 'Status', 'Attempts', 'Next attempt', 'Response', 'Error', 'Created', ''],
    logouts.map((b) => [
      `<code>${esc(b.session_id)}</code>`,
      esc(b.status),
      String(b.attempts),
      when(b.next_attempt_at),
      b.last_status_code === null ? '–' : String(b.last_status_code),
      esc(b.last_error ?? ''),
      when(b.created_at),
      postForm(
        `/console/backchannel-logouts/${b.id}/replay`,
        f.csrf,
        `<input type="hidden" name="client" value="${esc(c.client_id)}">`,
        'Send again',
      ),
    ]),
    'No back-channel logouts.',
  )}`;
};

export const clientEditPage = (f: Frame, c: Client, logouts: Logout[], status: string | undefined) =>
  consolePage(
    `Client: ${c.client_name}`,
    f,
    `<p>Client ID <code>${esc(c.client_id)}</code>, ${esc(authMethod(c.token_endpoint_auth_method))}, registered ${when(c.created_at)}</p>${postForm(
      `/console/clients/${encodeURIComponent(c.client_id)}`,
      f.csrf,
      text('Name', 'client_name', c.client_name, 'required maxlength="100"') +
        uris(c.redirect_uris.join('\n')) +
        scopeBoxes(c.scope.split(' ')) +
        `<p>${checkbox('First party (skips the consent screen)', 'first_party', 'true', c.first_party)}</p>` +
        logoutRedirects(c.post_logout_redirect_uris.join('\n')) +
        logoutUri(c.backchannel_logout_uri) +
        branding(c),
      'Save',
      'block',
    )}${clientSecretSection(f, c)}${c.backchannel_logout_uri || logouts.length || status ? logoutLog(f, c, logouts, status) : ''}<h2>Delete</h2><p>Deleting the client ends its sessions.</p>${dangerForm(
      `/console/clients/${encodeURIComponent(c.client_id)}/delete`,
      f.csrf,
      '',
      'Delete client',
    )}`,
  );
