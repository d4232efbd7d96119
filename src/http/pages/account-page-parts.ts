import { ACCOUNT_PAGE_PATH } from '../../domain/clients/account-page-client.ts';
import type { MessageKey } from '../../i18n/languages.ts';
import type { ConsentedApp } from '../../storage/repositories/consents.ts';
import type { PasskeyRow } from '../../storage/repositories/passkeys.ts';
import type { SessionRow } from '../../storage/repositories/sessions.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import type { FormProblem } from '../errors/page-messages.ts';
import { esc, hidden } from './html.ts';
import type { View } from './view.ts';

// What every part of the account page shares: what it shows, its forms and buttons, and its times.

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
  /** whether PINs are a way to sign in here (and so can be changed) */
  pins: boolean;
  recoveryCodesLeft: number;
  /** the app that sent the person here, to go back to */
  returnTo?: string;
  /** what the last change did */
  notice?: MessageKey;
  problem?: FormProblem;
  /** the new phone number as typed, shown again with its problem */
  typedPhone?: string;
}

/** Stands for the time in a message, until the message (escaped) takes the time's markup. */
const TIME_MARK = '\u2063time\u2063';

/**
 * A message with a time in it: written in UTC and saying so, in a `<time>` element that the page's script
 * (/assets/local-time.js) writes again in the browser's own time zone.
 */
export function withTime(v: View, key: MessageKey, at: Date): string {
  const utc = new Intl.DateTimeFormat(v.lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const time = `<time datetime="${at.toISOString()}">${esc(`${utc.format(at)} UTC`)}</time>`;
  return v.t(key, { time: TIME_MARK }).replace(TIME_MARK, time);
}

/** The script that writes the page's times in the browser's time zone. */
export const LOCAL_TIME_SCRIPT_TAG = '<script src="/assets/local-time.js" defer></script>';

/** A form of the page: its CSRF token and the way back ride along. */
export const accountForm = (a: AccountPageContent, action: string, inner: string, cls = '') =>
  `<form method="post" action="${ACCOUNT_PAGE_PATH}/${action}"${cls ? ` class="${cls}"` : ''}>${hidden('csrf', a.csrf)}${a.returnTo ? hidden('return_to', a.returnTo) : ''}${inner}</form>`;

export const PIN_INPUT = 'type="password" inputmode="numeric" autocomplete="current-password" required';
export const NEW_PIN_INPUT = 'type="password" inputmode="numeric" autocomplete="new-password" required';

/** A submit button: the main one, a secondary one, or one that destroys (deleting the account). */
export const button = (label: string, look: 'main' | 'secondary' | 'danger' = 'main') =>
  `<button type="submit"${look === 'main' ? '' : ` class="${look}"`}>${label}</button>`;

/** Changes that need a recent sign-in wait behind "Sign in again" until there is one. */
export function signInAgain(a: AccountPageContent): string {
  const back = a.returnTo ? `?return_to=${encodeURIComponent(a.returnTo)}` : '';
  return `<p>${a.view.t('account.sign_in_again_text')}</p><p><a class="button" href="${ACCOUNT_PAGE_PATH}/sign-in${back}">${a.view.t('account.sign_in_again')}</a></p>`;
}
