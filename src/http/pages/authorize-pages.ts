import type { CountryCode } from 'libphonenumber-js/max';
import { logoPath } from '../../domain/clients/logos.ts';
import { CAPTCHA_ACTION } from '../../domain/sms-defence/captcha-check.ts';
import type { MessageKey } from '../../i18n/languages.ts';
import type { Channel } from '../../providers/messaging/provider.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { errorAbove, errorAt, type FormProblem } from '../errors/page-messages.ts';
import { errorBox, esc, field, hidden, ltr, page } from './html.ts';
import { passkeySignIn, platformAuthenticatorField } from './passkey-forms.ts';
import { phoneField } from './phone-field.ts';
import type { Brand, View } from './view.ts';

// The hosted authorization page. Its English labels and button names are a contract: integrators' browser
// tests find "Phone number", "PIN", "Code", "Handle", "Name", "Continue", "Allow", "Deny", "Create account".
// Every language carries the same input names.

export interface FormContext {
  client: ClientRow;
  state: string;
  csrf: string;
  view: View;
  /** the phone field's country: the one last chosen, else the one suggested for this browser */
  country?: CountryCode;
  problem?: FormProblem;
  /** the PIN is a way to sign in here (SIGNIN_METHODS has `pin`); unset on pages that ask for no sign-in */
  pin?: boolean;
  /** passkeys are a way to sign in here */
  passkeys?: boolean;
  /** a code to the phone is a way to sign in here, by this channel */
  codeChannel?: Channel;
  /** the account this browser's single sign-on is of: its name (or handle) and masked phone */
  signedInAs?: { name: string; phone: string };
  /** what the step before did, said at the top of the next page (a passkey made) */
  notice?: MessageKey;
}

export const form = (action: string, c: FormContext, inner: string, after = '') =>
  `<form method="post" action="${action}">${hidden('state', c.state)}${hidden('csrf', c.csrf)}${inner}<button type="submit">${c.view.t('auth.continue')}</button>${after}</form>`;

const CODE_INSTEAD = {
  sms: 'auth.code_instead_sms',
  whatsapp: 'auth.code_instead_whatsapp',
  voice: 'auth.code_instead_voice',
} as const satisfies Record<Channel, string>;

/**
 * "Text me a code instead" (named by the channel the code goes by): a second button of the PIN form, which
 * sends its phone number to the code step without asking for the PIN, with or without JavaScript.
 */
const codeInstead = (c: FormContext) =>
  c.codeChannel
    ? `<button type="submit" class="secondary" formaction="/authorize/signup/send" formnovalidate name="purpose" value="signin">${c.view.t(CODE_INSTEAD[c.codeChannel])}</button>`
    : '';

/** Who this browser is signed in as, and "Not you?", which ends that sign-in here and starts again. */
export const signedInAs = (c: FormContext) =>
  c.signedInAs
    ? `<form method="post" action="/authorize/not-you" class="who">${hidden('state', c.state)}${hidden('csrf', c.csrf)}<p>${c.view.t('auth.signed_in_as', { ...c.signedInAs, phone: ltr(c.signedInAs.phone) })}</p><button type="submit" class="secondary">${c.view.t('auth.not_you')}</button></form>`
    : '';

export const intro = (c: FormContext) =>
  `${signedInAs(c)}<p>${c.view.t('auth.to_continue', { client: c.client.client_name })}</p>${errorBox(errorAbove(c.problem))}`;

/**
 * The view with where its language menu returns: the page's own GET, which shows the same step again from the
 * sealed state.
 */
export const stepView = (c: FormContext, path = '/authorize/resume'): View => ({
  ...c.view,
  back: `${path}?state=${encodeURIComponent(c.state)}`,
  brand: clientBrand(c.client, c.view),
});

/** The client's own brand on its pages: its name, logo and colour (else the instance's colour), its site. */
export const clientBrand = (client: ClientRow, v: View): Brand => ({
  name: client.client_name,
  logo: client.logo_image ? logoPath(client.logo_image) : undefined,
  accent: client.brand_color ?? v.brand.accent,
  link: client.client_uri ?? undefined,
});

/** Links to the client's privacy policy and terms, where it registered them. */
export function clientLinks(c: FormContext): string {
  const link = (href: string | null, key: 'auth.policy' | 'auth.terms') =>
    href ? `<a href="${esc(href)}" rel="noopener noreferrer" target="_blank">${c.view.t(key)}</a>` : '';
  const links = link(c.client.policy_uri, 'auth.policy') + link(c.client.tos_uri, 'auth.terms');
  return links ? `<p class="links">${links}</p>` : '';
}

export const PIN_ATTRS = 'type="password" inputmode="numeric" pattern="[0-9]{4,6}" maxlength="6" required';

/**
 * The sign-in page. Only the ways SIGNIN_METHODS has on are shown: the PIN field and "Forgot PIN?" with `pin`;
 * without it, the phone form sends a code where `code` is on, and a recovery code signs in once where passkeys
 * are the way in.
 */
export const signInPage = (c: FormContext, phone = '') => {
  const t = c.view.t;
  const phoneInput = phoneField(c.view, phone, c.country, {
    error: errorAt(c.problem, 'phone'),
    passkeys: c.passkeys,
  });
  const pinInput = field(t('auth.pin'), 'pin', `${PIN_ATTRS} autocomplete="current-password"`, {
    error: errorAt(c.problem, 'pin'),
  });
  const state = encodeURIComponent(c.state);
  const main =
    c.pin !== false
      ? form('/authorize/signin', c, phoneInput + pinInput + platformAuthenticatorField(c), codeInstead(c))
      : c.codeChannel
        ? form('/authorize/signup/send', c, phoneInput + hidden('purpose', 'signin'))
        : platformAuthenticatorField(c);
  const afterwards =
    c.pin !== false
      ? `<p><a href="/authorize/reset?state=${state}">${t('auth.forgot_pin')}</a></p>`
      : c.passkeys
        ? `<p><a href="/authorize/recovery?state=${state}">${t('reset.recovery_title')}</a></p>`
        : '';
  return page(
    stepView(c, '/authorize/signin'),
    t('auth.signin_title'),
    intro(c) +
      main +
      passkeySignIn(c) +
      afterwards +
      `<p>${t('auth.new_here')} <a href="/authorize/signup?state=${state}">${t('auth.create_account')}</a></p>${clientLinks(c)}`,
  );
};

const CHANNEL_NAMES = {
  sms: 'auth.channel_sms',
  whatsapp: 'auth.channel_whatsapp',
  voice: 'auth.channel_voice',
} as const satisfies Record<Channel, string>;

/** A choice of the channel the code goes by, when the service offers more than SMS. */
const channelChoice = (v: View, channels: readonly Channel[]) =>
  channels.length < 2
    ? ''
    : `<div class="field"><label for="channel">${v.t('auth.send_by')}</label><select id="channel" name="channel">${channels
        .map((ch) => `<option value="${ch}">${v.t(CHANNEL_NAMES[ch])}</option>`)
        .join('')}</select></div>`;

export const signUpPhonePage = (c: FormContext, phone = '', channels: readonly Channel[] = ['sms']) => {
  const t = c.view.t;
  const fields = phoneField(c.view, phone, c.country, { error: errorAt(c.problem, 'phone') });
  return page(
    stepView(c, '/authorize/signup'),
    t('auth.signup_title'),
    `${intro(c)}<p>${t('auth.will_send_code')}</p>${form('/authorize/signup/send', c, fields + channelChoice(c.view, channels))}<p>${t('auth.have_account')} <a href="/authorize/signin?state=${encodeURIComponent(c.state)}">${t('auth.sign_in')}</a></p>${clientLinks(c)}`,
  );
};

const needsScript = (v: View) => `<noscript><p class="error">${v.t('auth.needs_js')}</p></noscript>`;

/** The challenge the SMS defence asks for, solved in the browser by the page's own script, then sent on. */
export const signUpChallengePage = (c: FormContext, phone: string, challenge: object, purpose = 'signup') =>
  page(
    stepView(c, '/authorize/signup'),
    c.view.t('auth.signup_title'),
    `${intro(c)}<p>${c.view.t('auth.checking_person', { phone: ltr(phone) })}</p>${needsScript(c.view)}
<form method="post" action="/authorize/signup/send" data-challenge="${esc(JSON.stringify(challenge))}">${hidden('state', c.state)}${hidden('csrf', c.csrf)}${hidden('phone', phone)}${hidden('purpose', purpose)}${hidden('challenge_solution', '')}<noscript><button type="submit">${c.view.t('auth.continue')}</button></noscript></form>
<script src="/authorize/assets/challenge.js" defer></script>`,
  );

/** The operator's hosted CAPTCHA (Turnstile or hCaptcha), in the challenge's place: its widget, then Continue. */
export const signUpCaptchaPage = (
  c: FormContext,
  phone: string,
  widget: { widgetClass: string; siteKey: string; script: string },
  purpose = 'signup',
) =>
  page(
    stepView(c, '/authorize/signup'),
    c.view.t('auth.signup_title'),
    `${intro(c)}<p>${c.view.t('auth.show_person', { phone: ltr(phone) })}</p>${needsScript(c.view)}
<form method="post" action="/authorize/signup/send">${hidden('state', c.state)}${hidden('csrf', c.csrf)}${hidden('phone', phone)}${hidden('purpose', purpose)}<div class="${esc(widget.widgetClass)}" data-sitekey="${esc(widget.siteKey)}" data-action="${CAPTCHA_ACTION}"></div><button type="submit">${c.view.t('auth.continue')}</button></form>
<script src="${esc(widget.script)}" async defer></script>`,
  );

/** The code field, filled by the WebOTP API where the browser has it (the page's one script). */
export const signUpCodePage = (c: FormContext, maskedPhone: string, after = '') =>
  page(
    stepView(c),
    c.view.t('auth.code_title'),
    `${intro(c)}${c.notice ? `<p class="notice" role="status">${c.view.t(c.notice)}</p>` : ''}<p>${c.view.t('auth.code_sent', { phone: ltr(maskedPhone) })}</p>${form(
      '/authorize/signup/verify',
      c,
      field(
        c.view.t('auth.code'),
        'code',
        'type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]*" maxlength="10" required',
        { error: errorAt(c.problem, 'code') },
      ),
    )}${after}<script src="/assets/webotp.js" defer></script>`,
  );

/** The PIN and handle step; a refused try keeps the handle and name typed (never the PIN). */
export const signUpAccountPage = (c: FormContext, typed: { handle?: string; name?: string } = {}) => {
  const t = c.view.t;
  return page(
    stepView(c),
    t('auth.account_title'),
    intro(c) +
      form(
        '/authorize/signup/create',
        c,
        field(t('auth.pin'), 'pin', `${PIN_ATTRS} autocomplete="new-password"`, {
          hint: t('auth.pin_rules'),
          error: errorAt(c.problem, 'pin'),
        }) +
          field(
            t('auth.handle'),
            'handle',
            `autocomplete="username" autocapitalize="none" spellcheck="false" required value="${esc(typed.handle ?? '')}"`,
            {
              hint: t('auth.handle_rules'),
              error: errorAt(c.problem, 'handle'),
            },
          ) +
          field(
            t('auth.name'),
            'name',
            `autocomplete="name" maxlength="100" value="${esc(typed.name ?? '')}"`,
            {
              hint: t('page.optional'),
              error: errorAt(c.problem, 'name'),
            },
          ) +
          platformAuthenticatorField(c),
      ),
  );
};
