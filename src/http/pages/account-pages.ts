import { ACCOUNT_PAGE_PATH } from '../../domain/clients/account-page-client.ts';
import { maskPhone } from '../../domain/phone.ts';
import { LANGUAGES } from '../../i18n/languages.ts';
import { errorAbove, errorAt } from '../errors/page-messages.ts';
import {
  type AccountPageContent,
  accountForm,
  button,
  LOCAL_TIME_SCRIPT_TAG,
  signInAgain,
  withTime,
} from './account-page-parts.ts';
import { phoneSection } from './account-phone-pages.ts';
import { deleteSection, passkeysSection, pinSection, recoverySection } from './account-security-pages.ts';
import { ENDONYMS, errorBox, esc, field, hidden, ltr, page } from './html.ts';
import { platformWords } from './platform-words.ts';
import type { View } from './view.ts';

export type { AccountPageContent } from './account-page-parts.ts';

// The account page: where a person sees and changes their own account under this browser's single sign-on.
// Every change is a plain form (a passkey's creation needs the browser's WebAuthn, so that one form waits for
// the page's script); each answers with the page again and a line saying what changed.

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

function sessionsSection(a: AccountPageContent): string {
  const t = a.view.t;
  const here = `<li><strong>${t('account.this_browser')}</strong> · ${withTime(a.view, 'account.signed_in_at', a.signedInAt)}</li>`;
  const others = a.sessions.map((s) => {
    const platform = esc(platformWords(a.view, s.platform));
    const device = s.device_name
      ? `<strong>${esc(s.device_name)}</strong> · ${platform}`
      : `<strong>${platform}</strong>`;
    const address = s.ip_address ? ` · ${ltr(esc(s.ip_address))}` : '';
    const used = withTime(a.view, 'account.last_used', s.last_used_at);
    return `<li>${accountForm(a, 'session', `${hidden('session', s.id)}<span>${device}${address} · ${used}</span>${button(t('auth.sign_out'), 'secondary')}`, 'row')}</li>`;
  });
  return `<section><h2>${t('account.sessions')}</h2><ul class="items">${here}${others.join('')}</ul></section>`;
}

function appsSection(a: AccountPageContent): string {
  const t = a.view.t;
  const apps = a.apps.map(
    (app) =>
      `<li>${accountForm(a, 'app', `${hidden('client_id', app.client_id)}<span><strong>${esc(app.client_name)}</strong> · ${withTime(a.view, 'account.allowed_at', app.granted_at)}</span>${button(t('account.remove_access'), 'secondary')}`, 'row')}</li>`,
  );
  const list = apps.length ? `<ul class="items">${apps.join('')}</ul>` : `<p>${t('account.no_apps')}</p>`;
  return `<section><h2>${t('account.apps')}</h2>${list}</section>`;
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
      phoneSection(a) +
      pinSection(a) +
      passkeysSection(a) +
      recoverySection(a) +
      deleteSection(a) +
      LOCAL_TIME_SCRIPT_TAG,
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

/**
 * The account is gone, and this browser signed out: the way back to the app that sent the person here, else
 * to the account page (whose sign-in starts afresh).
 */
export function accountDeletedPage(v: View, returnTo?: string): string {
  const back = returnTo
    ? `<a href="${esc(returnTo)}">${v.t('account.back_to', { site: new URL(returnTo).host })}</a>`
    : `<a href="${ACCOUNT_PAGE_PATH}">${v.t('auth.sign_in')}</a>`;
  return page(v, v.t('account.deleted_title'), `<p>${v.t('account.deleted_text')}</p><p>${back}</p>`);
}
