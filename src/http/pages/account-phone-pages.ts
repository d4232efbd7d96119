import type { CountryCode } from 'libphonenumber-js';
import { ACCOUNT_PAGE_PATH } from '../../domain/clients/account-page-client.ts';
import { maskPhone } from '../../domain/phone.ts';
import { CAPTCHA_ACTION } from '../../domain/sms-defence/captcha-check.ts';
import { errorAbove, errorAt, type FormProblem } from '../errors/page-messages.ts';
import { type AccountPageContent, accountForm, button, PIN_INPUT } from './account-page-parts.ts';
import { errorBox, esc, field, hidden, ltr, page } from './html.ts';
import { phoneField } from './phone-field.ts';
import type { View } from './view.ts';

// The account page's phone number: a code to the new number, then that code and the PIN, as the REST API's
// POST /users/me/phone and /confirm. Where the SMS defence asks for a person first, its challenge (or the
// operator's CAPTCHA) comes between.

/** The section: the number the account signs in with, and a form to move it to a new one. */
export function phoneSection(a: AccountPageContent): string {
  const t = a.view.t;
  const picked = (a.account.country ?? undefined) as CountryCode | undefined;
  const inner =
    phoneField(a.view, a.typedPhone ?? '', picked, { error: errorAt(a.problem, 'phone') }) +
    button(t('account.send_code'));
  return `<section><h2>${t('account.phone_title')}</h2><p>${t('account.phone_text', { phone: ltr(maskPhone(a.account.phone)) })}</p>${accountForm(a, 'phone', inner)}</section>`;
}

/** What every step of the phone change carries: the page's CSRF token, its way back, the new number. */
export interface PhoneStep {
  view: View;
  csrf: string;
  returnTo?: string;
  /** the new number, E.164 */
  phone: string;
  problem?: FormProblem;
}

const carried = (s: PhoneStep) =>
  `${hidden('csrf', s.csrf)}${s.returnTo ? hidden('return_to', s.returnTo) : ''}${hidden('phone', s.phone)}`;

const back = (s: PhoneStep) =>
  `<p><a href="${ACCOUNT_PAGE_PATH}${s.returnTo ? `?return_to=${encodeURIComponent(s.returnTo)}` : ''}">${s.view.t('account.done')}</a></p>`;

/** The proof of work the SMS defence asked for: the page's script solves it and sends the form again. */
export const phoneChallengePage = (s: PhoneStep, challenge: object) =>
  page(
    s.view,
    s.view.t('account.phone_title'),
    `<p>${s.view.t('auth.checking_person', { phone: ltr(s.phone) })}</p><noscript><p class="error">${s.view.t('auth.needs_js')}</p></noscript>
<form method="post" action="${ACCOUNT_PAGE_PATH}/phone" data-challenge="${esc(JSON.stringify(challenge))}">${carried(s)}${hidden('challenge_solution', '')}</form>
<script src="/authorize/assets/challenge.js" defer></script>${back(s)}`,
  );

/** The operator's hosted CAPTCHA in the challenge's place: its widget, then Continue. */
export const phoneCaptchaPage = (
  s: PhoneStep,
  widget: { widgetClass: string; siteKey: string; script: string },
) =>
  page(
    s.view,
    s.view.t('account.phone_title'),
    `<p>${s.view.t('auth.show_person', { phone: ltr(s.phone) })}</p>
<form method="post" action="${ACCOUNT_PAGE_PATH}/phone">${carried(s)}<div class="${esc(widget.widgetClass)}" data-sitekey="${esc(widget.siteKey)}" data-action="${CAPTCHA_ACTION}"></div><button type="submit">${s.view.t('auth.continue')}</button></form>
<script src="${esc(widget.script)}" async defer></script>${back(s)}`,
  );

/** The code sent to the new number, and the PIN: the account moves to the number. */
export const phoneCodePage = (s: PhoneStep) => {
  const t = s.view.t;
  const code = field(t('auth.code'), 'code', 'inputmode="numeric" autocomplete="one-time-code" required', {
    error: errorAt(s.problem, 'code'),
  });
  const pin = field(t('auth.pin'), 'pin', PIN_INPUT, { error: errorAt(s.problem, 'pin') });
  return page(
    s.view,
    t('auth.code_title'),
    `<p>${t('account.phone_code_text', { phone: ltr(s.phone) })}</p>${errorBox(errorAbove(s.problem))}<form method="post" action="${ACCOUNT_PAGE_PATH}/phone/confirm">${carried(s)}${code}${pin}<button type="submit">${t('auth.continue')}</button></form>${back(s)}`,
  );
};
