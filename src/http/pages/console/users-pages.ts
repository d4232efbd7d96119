import type { AccountDetail, AdminUser as AdminUserAnswer } from '../../admin/responses.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { consolePage, dangerForm, type Frame, maskedAddress, postForm, table, when } from './layout.ts';
import { type PhoneRisk, phoneChecksSection } from './phone-checks-section.ts';

export type AdminUser = Answered<typeof AdminUserAnswer> & Partial<Answered<typeof AccountDetail>>;

/**
 * The session a passkey or a recovery-code set was made from: its device while it is among the sessions
 * shown, else that it has ended; none recorded, the account page (or before this was recorded).
 */
const madeFrom = (u: AdminUser, sessionId: string | null) => {
  if (sessionId === null) return 'the account page, or not recorded';
  const s = u.sessions?.find((x) => x.id === sessionId);
  return s
    ? `${esc(s.device_name ?? s.platform)} (${esc(s.platform)})`
    : 'another session (ended, or not among those shown)';
};

/** The account's passkeys, each with its removal, and whether it has recovery codes. */
const strongerWaysIn = (f: Frame, u: AdminUser, base: string) => {
  const codes = u.recovery_codes;
  const recovery = codes?.created_at
    ? `<p id="recovery-codes">Recovery codes: ${codes.remaining} of 10 left, made ${when(codes.created_at)} from ${madeFrom(u, codes.session_id)}.</p>`
    : '<p id="recovery-codes">No recovery codes.</p>';
  return `<h2>Passkeys</h2>${table(
    ['Name', 'Kind', 'Created', 'Made from', 'Last used', ''],
    (u.passkeys ?? []).map((p) => [
      esc(p.name),
      p.device_type === 'multi_device' ? 'synced' : 'this device only',
      when(p.created_at),
      madeFrom(u, p.session_id),
      p.last_used_at ? when(p.last_used_at) : 'never',
      dangerForm(`${base}/passkeys/${p.id}/remove`, f.csrf, '', 'Remove'),
    ]),
    'No passkeys.',
  )}<h2>Recovery codes</h2>${recovery}`;
};

/** How a session's sign-in was proven, in words, from its methods (RFC 8176). */
const PROOFS: Array<[string, string]> = [
  ['mnv', 'the mobile network'],
  ['hwk', 'a passkey'],
  ['swk', 'a passkey'],
  ['sms', 'a code by SMS'],
  ['tel', 'a code by voice'],
  ['otp', 'a code'],
  ['pwd', 'the PIN'],
];
const provenBy = (amr: string[]) =>
  PROOFS.find(([method]) => amr.includes(method))?.[1] ?? esc(amr.join(' '));

/** The detail lists the most recently used sessions only; say so when there are more. */
const sessionsShown = (u: AdminUser) => {
  const shown = u.sessions?.length ?? 0;
  return u.sessions_total !== undefined && u.sessions_total > shown
    ? `<p id="sessions-shown">The ${shown} most recently used of ${u.sessions_total} active sessions.</p>`
    : '';
};

export type UserSearchForm = Record<string, string>;

const KYC_OPTIONS = ['', 'none', 'pending', 'verified', 'rejected'];

const search = (form: UserSearchForm) => {
  const kyc = KYC_OPTIONS.map(
    (v) => `<option value="${v}"${form.kyc_status === v ? ' selected' : ''}>${v || 'any'}</option>`,
  ).join('');
  const day = (name: string, label: string) =>
    `<span><label for="${name}">${label}</label><input type="date" id="${name}" name="${name}" value="${esc(form[name] ?? '')}"></span>`;
  return `<form method="get" action="/console/users" role="search" class="search">
<label for="q">Phone number, handle, name, user id or imported id</label>
<input type="search" id="q" name="q" value="${esc(form.q ?? '')}">
<span class="filters"><span><label for="kyc_status">KYC status</label><select id="kyc_status" name="kyc_status">${kyc}</select></span>
${day('created_from', 'Created from')}${day('created_to', 'Created to')}</span>
<button type="submit">Find</button></form>`;
};

/** The link to the next page: the same search, after the last account shown. */
const nextPage = (form: UserSearchForm, cursor: string | null) => {
  if (!cursor) return '';
  const query = new URLSearchParams(
    Object.entries({ ...form, cursor }).filter(([, v]) => v !== '' && v !== undefined),
  );
  return `<p><a href="/console/users?${esc(query.toString())}" rel="next">Next page</a></p>`;
};

/** Whether an account is locked, and by what: an operator, or wrong PINs (until when). */
const lockOf = (f: Frame, u: AdminUser) => {
  if (u.admin_locked_at) return 'by an operator';
  if (u.pin_locked_until && Date.parse(u.pin_locked_until) > f.now.getTime())
    return `wrong PINs, until ${when(u.pin_locked_until)}`;
  return '–';
};

/** The accounts in all, whatever the search. */
export interface AccountsTotal {
  total: number;
  total_estimated: boolean;
}

/** Users: every account, newest first, a page at a time, narrowed by a search and filters. */
export const usersPage = (
  f: Frame,
  form: UserSearchForm,
  found: AdminUser[],
  cursor: string | null,
  all?: AccountsTotal,
) => {
  const searched = Boolean(form.q || form.kyc_status || form.created_from || form.created_to);
  const total = all
    ? `<p id="accounts-total">${all.total_estimated ? 'About ' : ''}${all.total.toLocaleString('en')} account${all.total === 1 ? '' : 's'} in all.</p>`
    : '';
  return consolePage(
    'Users',
    f,
    search(form) +
      total +
      (searched ? '' : '<h2>Newest accounts</h2>') +
      table(
        ['Handle', 'Name', 'Phone', 'KYC', 'Locked', 'Created'],
        found.map((u) => [
          `<a href="/console/users/${u.id}">@${esc(u.handle)}</a>`,
          esc(u.name),
          esc(u.phone),
          esc(u.kyc_status),
          lockOf(f, u),
          when(u.created_at),
        ]),
        searched ? 'No account matches.' : 'No accounts yet.',
      ) +
      nextPage(form, cursor),
  );
};

export const userPage = (f: Frame, u: AdminUser, risk?: PhoneRisk) => {
  const base = `/console/users/${u.id}`;
  const locked = u.admin_locked_at
    ? `<p><strong>Locked by an operator</strong> since ${when(u.admin_locked_at)}.</p>${postForm(`${base}/unlock`, f.csrf, '', 'Unlock')}`
    : `${u.pin_locked_until ? `<p>Locked after wrong PINs until ${when(u.pin_locked_until)}.</p>` : ''}${dangerForm(
        `${base}/lock`,
        f.csrf,
        '',
        'Lock account',
      )} <small>Ends every session; sign-in and PIN reset are refused until unlocked.</small>${
        u.pin_locked_until ? ` ${postForm(`${base}/unlock`, f.csrf, '', 'Unlock')}` : ''
      }`;
  return consolePage(
    `@${u.handle}`,
    f,
    `${table(
      ['Field', 'Value'],
      [
        ['Id', `<code>${esc(u.id)}</code>`],
        ['Name', esc(u.name)],
        ['Phone', esc(u.phone)],
        ['E-mail', esc(u.email)],
        ['Country', esc(u.country ?? '–')],
        ['Language', esc(u.language ?? '–')],
        [
          'KYC',
          `${esc(u.kyc?.status)}${u.kyc?.level ? ` (${esc(u.kyc.level)})` : ''}${u.kyc_country ? `, ${esc(u.kyc_country)}` : ''}`,
        ],
        ['PIN', u.pin_set === false ? 'Not set (imported: its person sets one with a code)' : 'Set'],
        ['Wrong PINs in a row', String(u.failed_pin_attempts)],
        ['Imported id', u.external_id ? `<code>${esc(u.external_id)}</code>` : '–'],
        [
          'Metadata',
          u.metadata && Object.keys(u.metadata).length
            ? `<code>${esc(JSON.stringify(u.metadata))}</code>`
            : '–',
        ],
        ['Created', when(u.created_at)],
      ],
    )}<h2>Lock</h2>${locked}${strongerWaysIn(f, u, base)}${phoneChecksSection(f, base, risk, Boolean(u.external_id))}<h2>Sessions</h2>${sessionsShown(u)}${table(
      ['Device', 'Platform', 'Application', 'Proven by', 'Address', 'Last used', 'Created', ''],
      (u.sessions ?? []).map((s) => [
        esc(s.device_name),
        esc(s.platform),
        esc(s.client_name ?? s.client_id),
        provenBy(s.amr),
        esc(maskedAddress(s.ip_address)),
        when(s.last_used_at),
        when(s.created_at),
        dangerForm(`${base}/sessions/${s.id}/revoke`, f.csrf, '', 'Revoke'),
      ]),
      'No active sessions.',
    )}<h2>Applications allowed</h2>${table(
      ['Application', 'Scopes', 'Allowed', 'Active sessions', 'Last used'],
      (u.apps ?? []).map((a) => [
        `<a href="/console/clients/${encodeURIComponent(a.client_id)}">${esc(a.client_name)}</a>`,
        esc(a.scopes.join(' ')),
        when(a.granted_at),
        String(a.active_sessions),
        a.last_used_at ? when(a.last_used_at) : '',
      ]),
      'No application allowed (P102): first-party applications do not ask.',
    )}`,
  );
};
