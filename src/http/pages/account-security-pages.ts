import { DELETE_CONFIRMATION } from '../../domain/accounts/account-deletion.ts';
import { ACCOUNT_PAGE_PATH } from '../../domain/clients/account-page-client.ts';
import type { SessionRow } from '../../storage/repositories/sessions.ts';
import { errorAt } from '../errors/page-messages.ts';
import {
  type AccountPageContent,
  accountForm,
  button,
  NEW_PIN_INPUT,
  PIN_INPUT,
  signInAgain,
  withTime,
} from './account-page-parts.ts';
import { esc, field, hidden } from './html.ts';
import { PASSKEY_SCRIPTS, passkeyForm } from './passkey-forms.ts';
import { platformWords } from './platform-words.ts';
import type { View } from './view.ts';

// The account page's ways in and out: the PIN, passkeys, recovery codes and deleting the account.

/** Change PIN: the current PIN and a new one; every other sign-in ends. */
export function pinSection(a: AccountPageContent): string {
  if (!a.pins) return '';
  const t = a.view.t;
  const inner =
    field(t('account.current_pin'), 'current_pin', PIN_INPUT, { error: errorAt(a.problem, 'current_pin') }) +
    field(t('reset.new_pin'), 'new_pin', NEW_PIN_INPUT, {
      hint: t('auth.pin_rules'),
      error: errorAt(a.problem, 'new_pin'),
    }) +
    button(t('account.change_pin'));
  return `<section><h2>${t('account.change_pin')}</h2>${accountForm(a, 'pin', inner)}</section>`;
}

/** Where a passkey was added from: the session's device name and platform (`t` escapes them). */
const addedFrom = (v: View, s: SessionRow) => {
  const platform = platformWords(v, s.platform);
  return v.t('account.added_from', { device: s.device_name ? `${s.device_name} (${platform})` : platform });
};

export function passkeysSection(a: AccountPageContent): string {
  if (!a.passkeys) return '';
  const t = a.view.t;
  const items = a.passkeys.map((p) => {
    const id = `passkey-${p.id}`;
    const rename = accountForm(
      a,
      'passkey/rename',
      `${hidden('passkey', p.id)}<label for="${id}">${t('auth.name')}</label><input id="${id}" name="name" value="${esc(p.name)}" maxlength="64" required>${button(t('account.rename'), 'secondary')}`,
      'row',
    );
    const remove = a.recent
      ? accountForm(a, 'passkey/remove', hidden('passkey', p.id) + button(t('account.remove'), 'secondary'))
      : '';
    const from = a.sessions.find((s) => s.id === p.session_id);
    const device = from ? ` · ${addedFrom(a.view, from)}` : '';
    return `<li>${rename}<p class="hint">${withTime(a.view, 'account.added_at', p.created_at)}${device}</p>${remove}</li>`;
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

export function recoverySection(a: AccountPageContent): string {
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

export function deleteSection(a: AccountPageContent): string {
  const t = a.view.t;
  if (!a.recent) return `<section><h2>${t('account.delete')}</h2>${signInAgain(a)}</section>`;
  const inner =
    `<p>${t('account.delete_text', { phrase: DELETE_CONFIRMATION })}</p>` +
    field(t('account.confirmation'), 'confirmation', 'autocomplete="off" autocapitalize="characters"', {
      error: errorAt(a.problem, 'confirmation'),
    }) +
    field(t('auth.pin'), 'pin', PIN_INPUT, {}, 'delete-pin') +
    button(t('account.delete'), 'danger');
  return `<section><h2>${t('account.delete')}</h2>${accountForm(a, 'delete', inner)}</section>`;
}
