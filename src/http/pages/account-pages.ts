import { DELETE_CONFIRMATION } from '../../domain/accounts/account-deletion.ts';
import { ACCOUNT_PAGE_PATH } from '../../domain/clients/account-page-client.ts';
import { maskPhone } from '../../domain/phone.ts';
import { LANGUAGES, type MessageKey, translate } from '../../i18n/languages.ts';
import type { ConsentedApp } from '../../storage/repositories/consents.ts';
import type { PasskeyRow } from '../../storage/repositories/passkeys.ts';
import type { SessionRow } from '../../storage/repositories/sessions.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { errorAbove, errorAt, type FormProblem } from '../errors/page-messages.ts';
import { ENDONYMS, errorBox, esc, field, hidden, ltr, page } from './html.ts';
import { PASSKEY_SCRIPTS, passkeyForm } from './passkey-forms.ts';
import type { View } from './view.ts';

// The account page: where a person sees and changes their own account under this browser's single sign-on.
// Every change is a plain form (a passkey's creation needs the browser's WebAuthn, so that one form waits for
// the page's script); each answers with the page again and a line saying what changed.

/** What the account page shows. */
export interface AccountPageContent {
  view: View;
  csrf: string;
  account: UserRow;
  /** when this browser signed in */
  signedInAt: Date;
  /** signed in recently enough to change passkeys and recovery codes, and to delete the account */
  recent: boolean;
  sessions: SessionRow[];
  apps: ConsentedApp[];
  /** undefined where passkeys are not a way to sign in here */
  passkeys?: PasskeyRow[];
  recoveryCodesLeft: number;
  /** the app that sent the person here, to go back to */
  returnTo?: string;
  /** what the last change did */
  notice?: MessageKey;
  problem?: FormProblem;
}

/** A time as the person reads it (the page's values are escaped, so this is plain text). */
const when = (v: View, at: Date) =>
  `${new Intl.DateTimeFormat(v.lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;

/** A form of the page: its CSRF token and the way back ride along. */
const accountForm = (a: AccountPageContent, action: string, inner: string, cls = '') =>
  `<form method="post" action="${ACCOUNT_PAGE_PATH}/${action}"${cls ? ` class="${cls}"` : ''}>${hidden('csrf', a.csrf)}${a.returnTo ? hidden('return_to', a.returnTo) : ''}${inner}</form>`;

const PIN_INPUT = 'type="password" inputmode="numeric" autocomplete="current-password" required';

const button = (label: string, secondary = false) =>
  `<button type="submit"${secondary ? ' class="secondary"' : ''}>${label}</button>`;

function header(a: AccountPageContent): string {
  const t = a.view.t;
  const who = t('auth.signed_in_as', {
    name: a.account.name ?? a.account.handle,
    phone: ltr(maskPhone(a.account.phone)),
  });
  const back = a.returnTo
    ? `<p><a href="${esc(a.returnTo)}">${t('account.back_to', { site: new URL(a.returnTo).host })}</a></p>`
    : '';
  const notice = a.notice ? `<p class="notice" role="status">${t(a.notice)}</p>` : '';
  return `<p>${who}</p>${back}${notice}${errorBox(errorAbove(a.problem))}<p><a href="/authorize/logout">${t('auth.sign_out')}</a></p>`;
}

function profileSection(a: AccountPageContent): string {
  const t = a.view.t;
  const options = ['<option value="">—</option>']
    .concat(
      LANGUAGES.map(
        (l) =>
          `<option value="${l}" lang="${l}"${l === a.account.language ? ' selected' : ''}>${esc(ENDONYMS[l])}</option>`,
      ),
    )
    .join('');
  const inner =
    field(
      t('auth.name'),
      'name',
      `value="${esc(a.account.name ?? '')}" maxlength="100" autocomplete="name"`,
      {
        error: errorAt(a.problem, 'name'),
      },
    ) +
    field(t('auth.handle'), 'handle', `value="${esc(a.account.handle)}" autocapitalize="none"`, {
      hint: t('auth.handle_rules'),
      error: errorAt(a.problem, 'handle'),
    }) +
    `<div class="field"><label for="account-language">${t('account.language')}</label><select id="account-language" name="language">${options}</select></div>` +
    button(t('account.save'));
  return `<section><h2>${t('account.profile')}</h2>${accountForm(a, 'profile', inner)}</section>`;
}

/** The words of the page's language for each platform a session can be on. */
const PLATFORM_WORDS = {
  android: 'account.platform.android',
  ios: 'account.platform.ios',
  web: 'account.platform.web',
  desktop: 'account.platform.desktop',
} as const;

/** A session's platform in the page's words, as plain text (one it does not know, as it is). */
const platformWords = (v: View, platform: string) =>
  platform in PLATFORM_WORDS
    ? translate(v.lang, PLATFORM_WORDS[platform as keyof typeof PLATFORM_WORDS])
    : platform;

/** Where a passkey was added from: the session's device name and platform (`t` escapes them). */
const addedFrom = (v: View, s: SessionRow) => {
  const platform = platformWords(v, s.platform);
  return v.t('account.added_from', { device: s.device_name ? `${s.device_name} (${platform})` : platform });
};

function sessionsSection(a: AccountPageContent): string {
  const t = a.view.t;
  const here = `<li><strong>${t('account.this_browser')}</strong> · ${t('account.signed_in_at', { time: when(a.view, a.signedInAt) })}</li>`;
  const others = a.sessions.map((s) => {
    const platform = esc(platformWords(a.view, s.platform));
    const device = s.device_name
      ? `<strong>${esc(s.device_name)}</strong> · ${platform}`
      : `<strong>${platform}</strong>`;
    const address = s.ip_address ? ` · ${ltr(esc(s.ip_address))}` : '';
    const used = t('account.last_used', { time: when(a.view, s.last_used_at) });
    return `<li>${accountForm(a, 'session', `${hidden('session', s.id)}<span>${device}${address} · ${used}</span>${button(t('auth.sign_out'), true)}`, 'row')}</li>`;
  });
  return `<section><h2>${t('account.sessions')}</h2><ul class="items">${here}${others.join('')}</ul></section>`;
}

function appsSection(a: AccountPageContent): string {
  const t = a.view.t;
  const apps = a.apps.map(
    (app) =>
      `<li>${accountForm(a, 'app', `${hidden('client_id', app.client_id)}<span><strong>${esc(app.client_name)}</strong> · ${t('account.allowed_at', { time: when(a.view, app.granted_at) })}</span>${button(t('account.remove_access'), true)}`, 'row')}</li>`,
  );
  const list = apps.length ? `<ul class="items">${apps.join('')}</ul>` : `<p>${t('account.no_apps')}</p>`;
  return `<section><h2>${t('account.apps')}</h2>${list}</section>`;
}

/** Changes that need a recent sign-in wait behind "Sign in again" until there is one. */
function signInAgain(a: AccountPageContent): string {
  const back = a.returnTo ? `?return_to=${encodeURIComponent(a.returnTo)}` : '';
  return `<p>${a.view.t('account.sign_in_again_text')}</p><p><a class="button" href="${ACCOUNT_PAGE_PATH}/sign-in${back}">${a.view.t('account.sign_in_again')}</a></p>`;
}

function passkeysSection(a: AccountPageContent): string {
  if (!a.passkeys) return '';
  const t = a.view.t;
  const items = a.passkeys.map((p) => {
    const id = `passkey-${p.id}`;
    const rename = accountForm(
      a,
      'passkey/rename',
      `${hidden('passkey', p.id)}<label for="${id}">${t('auth.name')}</label><input id="${id}" name="name" value="${esc(p.name)}" maxlength="64" required>${button(t('account.rename'), true)}`,
      'row',
    );
    const remove = a.recent
      ? accountForm(a, 'passkey/remove', hidden('passkey', p.id) + button(t('account.remove'), true))
      : '';
    const from = a.sessions.find((s) => s.id === p.session_id);
    const device = from ? ` · ${addedFrom(a.view, from)}` : '';
    return `<li>${rename}<p class="hint">${t('account.added_at', { time: when(a.view, p.created_at) })}${device}</p>${remove}</li>`;
  });
  const list = items.length
    ? `<ul class="items">${items.join('')}</ul>`
    : `<p>${t('account.no_passkeys')}</p>`;
  const add = a.recent
    ? passkeyForm(
        { state: '', csrf: a.csrf, view: a.view },
        {
          action: `${ACCOUNT_PAGE_PATH}/passkey`,
          ceremony: 'register',
          button: t('account.add_passkey'),
          failed: t('account.passkey_failed'),
          options: `${ACCOUNT_PAGE_PATH}/passkey/options`,
          returnTo: a.returnTo,
        },
      ) + PASSKEY_SCRIPTS
    : '';
  return `<section><h2>${t('account.passkeys')}</h2>${list}${add}</section>`;
}

function recoverySection(a: AccountPageContent): string {
  const t = a.view.t;
  const left = a.recoveryCodesLeft
    ? t('account.recovery_left', { count: a.recoveryCodesLeft })
    : t('account.recovery_none');
  const create = a.recent
    ? accountForm(
        a,
        'recovery-codes',
        field(t('auth.pin'), 'pin', PIN_INPUT, { error: errorAt(a.problem, 'pin') }, 'recovery-pin') +
          button(t('account.create_codes')),
      )
    : '';
  return `<section><h2>${t('account.recovery')}</h2><p>${left}</p><p>${t('account.recovery_text')}</p>${create}</section>`;
}

function deleteSection(a: AccountPageContent): string {
  const t = a.view.t;
  if (!a.recent) return `<section><h2>${t('account.delete')}</h2>${signInAgain(a)}</section>`;
  const inner =
    `<p>${t('account.delete_text', { phrase: DELETE_CONFIRMATION })}</p>` +
    field(t('account.confirmation'), 'confirmation', 'autocomplete="off" autocapitalize="characters"', {
      error: errorAt(a.problem, 'confirmation'),
    }) +
    field(t('auth.pin'), 'pin', PIN_INPUT, {}, 'delete-pin') +
    button(t('account.delete'));
  return `<section><h2>${t('account.delete')}</h2>${accountForm(a, 'delete', inner)}</section>`;
}

/** The whole page: who is signed in, then each part of the account. */
export function accountPage(a: AccountPageContent): string {
  const stale = a.recent ? '' : `<section>${signInAgain(a)}</section>`;
  return page(
    a.view,
    a.view.t('account.title'),
    header(a) +
      profileSection(a) +
      sessionsSection(a) +
      appsSection(a) +
      stale +
      passkeysSection(a) +
      recoverySection(a) +
      deleteSection(a),
  );
}

/** A new set of recovery codes, shown this once. */
export function recoveryCodesPage(v: View, codes: string[], back: string): string {
  const list = codes.map((code) => `<li><code>${esc(code)}</code></li>`).join('');
  return page(
    v,
    v.t('account.codes_title'),
    `<p>${v.t('account.codes_text')}</p><ol class="codes">${list}</ol><p><a href="${esc(back)}">${v.t('account.done')}</a></p>`,
  );
}

/** The account is gone, and this browser signed out. */
export const accountDeletedPage = (v: View) =>
  page(v, v.t('account.deleted_title'), `<p>${v.t('account.deleted_text')}</p>`);
