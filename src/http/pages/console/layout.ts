import { SEND_STATUSES } from '../../../domain/paging.ts';
import { esc } from '../html.ts';

// Issue 8: the operator's console. Plain server-rendered HTML: every action is a form that works with
// JavaScript off; every form carries the session's CSRF token.

// The console's look lives in the service's one stylesheet (assets/stylesheet.ts), under `body.console`.

const NAV: [string, string][] = [
  ['/console', 'Overview'],
  ['/console/clients', 'Clients'],
  ['/console/api-keys', 'API keys'],
  ['/console/webhooks', 'Webhooks'],
  ['/console/kyc', 'KYC review'],
  ['/console/users', 'Users'],
  ['/console/sms', 'SMS traffic'],
  ['/console/messages', 'Messages'],
  ['/console/network-checks', 'Silent checks'],
  ['/console/actions', 'Actions'],
];

export interface Frame {
  csrf: string;
  /** the nav entry to mark as current */
  section: string;
  /** the service's clock when the page was asked for */
  now: Date;
  notice?: string;
  error?: string;
}

const document = (title: string, header: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${esc(title)} · Callsign console</title><link rel="stylesheet" href="/assets/callsign.css"></head>
<body class="console">${header}<main><h1>${esc(title)}</h1>${body}</main></body></html>`;

export function consolePage(title: string, f: Frame, body: string): string {
  const nav = NAV.map(
    ([href, label]) =>
      `<a href="${href}"${href === f.section ? ' aria-current="page"' : ''}>${esc(label)}</a>`,
  ).join('');
  const header = `<header><strong>Callsign console</strong><nav aria-label="Console">${nav}</nav>${postForm('/console/signout', f.csrf, '', 'Sign out')}</header>`;
  const notice = f.notice ? `<p class="notice" role="status">${esc(f.notice)}</p>` : '';
  const error = f.error ? `<p class="error" role="alert">${esc(f.error)}</p>` : '';
  return document(title, header, notice + error + body);
}

export const signInPage = (csrf: string, error?: string) =>
  document(
    'Sign in',
    '<header><strong>Callsign console</strong></header>',
    `${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/console/signin">${hiddenCsrf(csrf)}
<label for="token">Admin token</label><input type="password" id="token" name="token" autocomplete="current-password" required>
<p><button type="submit">Sign in</button></p></form>`,
  );

export const hiddenCsrf = (csrf: string) => `<input type="hidden" name="csrf" value="${esc(csrf)}">`;

/** A form that posts; with no fields it is a single button. */
export const postForm = (action: string, csrf: string, inner: string, button: string, cls = 'inline') =>
  `<form class="${cls}" method="post" action="${esc(action)}">${hiddenCsrf(csrf)}${inner}<button type="submit">${esc(button)}</button></form>`;

/**
 * A form whose action cannot be undone (a deletion, a lock, a revocation): its button has the danger colour,
 * and the console asks once more before it acts (`confirmFirst`).
 */
export const dangerForm = (action: string, csrf: string, inner: string, button: string) =>
  `<form class="inline" method="post" action="${esc(action)}">${hiddenCsrf(csrf)}${inner}<button type="submit" class="danger">${esc(button)}</button></form>`;

/**
 * A table: on a wide screen rows and columns; on a phone each row stacked, a line per cell with its column's
 * name (data-label), so nothing scrolls sideways and no word is cut.
 */
export const table = (headers: string[], rows: string[][], empty = 'Nothing here yet.') =>
  rows.length
    ? `<div class="table"><table><thead><tr>${headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
        .map(
          (r) =>
            `<tr>${r.map((c, i) => `<td data-label="${esc(headers[i] ?? '')}">${c}</td>`).join('')}</tr>`,
        )
        .join('')}</tbody></table></div>`
    : `<p>${esc(empty)}</p>`;

export const text = (label: string, name: string, value = '', attrs = '') =>
  `<label for="${name}">${esc(label)}</label><input type="text" id="${name}" name="${name}" value="${esc(value)}" ${attrs}>`;

export const checkbox = (label: string, name: string, value: string, checked: boolean) =>
  `<label class="inline"><input type="checkbox" name="${name}" value="${esc(value)}"${checked ? ' checked' : ''}> ${esc(label)}</label>`;

/** A secret shown once, with what it is for. */
export const secretBox = (label: string, secret: string) =>
  `<p><strong>${esc(label)}</strong> (shown once: copy it now, it cannot be shown again)</p><p class="secret" id="secret">${esc(secret)}</p>`;

/**
 * A client's address as operators see it in lists: the network, not the device (IPv4 to its /24, IPv6 to its
 * /64), which tells where a session came from without showing who.
 */
export function maskedAddress(address: string | null | undefined): string {
  if (!address) return '–';
  if (address.includes(':')) {
    const groups = address.split('::')[0].split(':').slice(0, 4);
    return `${groups.join(':')}::/64`;
  }
  const parts = address.split('.');
  return parts.length === 4 ? `${parts.slice(0, 3).join('.')}.0/24` : address;
}

export const when = (v: unknown) =>
  v
    ? esc(
        String(v)
          .replace('T', ' ')
          .replace(/\.\d+Z$/, 'Z'),
      )
    : '–';

/** The status filter of a log of sends (webhook deliveries, back-channel logouts): links to `base?status=`. */
export const statusFilters = (base: string, status: string | undefined) =>
  ['all', ...SEND_STATUSES]
    .map((s) =>
      (status ?? 'all') === s
        ? `<strong>${s}</strong>`
        : `<a href="${base}${s === 'all' ? '' : `?status=${s}`}">${s}</a>`,
    )
    .join(' · ');
