import type { RemovedByReset } from '../../domain/accounts/pin-reset-sessions.ts';
import { errorAt } from '../errors/page-messages.ts';
import { type FormContext, form, intro, PIN_ATTRS, stepView } from './authorize-pages.ts';
import { field, hidden, page } from './html.ts';
import { platformAuthenticatorField } from './passkey-forms.ts';
import { phoneField } from './phone-field.ts';

// "Forgot PIN?" on the hosted pages: the phone, a code to it (or a recovery code instead), a new PIN, and back
// into the authorization under way. The English labels are a contract like the other steps' ("Forgot PIN?",
// "Use a recovery code instead", "New PIN", "Recovery code").

/** The phone the reset's code goes to; it posts to the code step with purpose pin_reset. */
export const resetPhonePage = (c: FormContext, phone = '') => {
  const t = c.view.t;
  const fields =
    phoneField(c.view, phone, c.country, { error: errorAt(c.problem, 'phone') }) +
    hidden('purpose', 'pin_reset');
  return page(
    stepView(c, '/authorize/reset'),
    t('reset.title'),
    `${intro(c)}<p>${t('reset.intro')}</p>${form('/authorize/signup/send', c, fields)}<p><a href="/authorize/signin?state=${encodeURIComponent(c.state)}">${t('auth.sign_in')}</a></p>`,
  );
};

/** Beside the reset's code: the way to a recovery code instead. */
export const recoveryCodeLink = (c: FormContext) =>
  `<p><a href="/authorize/reset/recovery?state=${encodeURIComponent(c.state)}">${c.view.t('reset.use_recovery_code')}</a></p>`;

const newPinField = (c: FormContext) =>
  field(c.view.t('reset.new_pin'), 'pin', `${PIN_ATTRS} autocomplete="new-password"`, {
    hint: c.view.t('auth.pin_rules'),
    error: errorAt(c.problem, 'pin'),
  });

/** The new PIN, once the code proved the phone. */
export const resetPinPage = (c: FormContext) =>
  page(
    stepView(c),
    c.view.t('reset.new_pin_title'),
    intro(c) + form('/authorize/reset/pin', c, newPinField(c) + platformAuthenticatorField(c)),
  );

const recoveryCodeField = (c: FormContext) =>
  field(
    c.view.t('reset.recovery_code'),
    'recovery_code',
    'type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="64" required',
    { hint: c.view.t('reset.recovery_hint'), error: errorAt(c.problem, 'recovery_code') },
  );

/**
 * Where PINs are off: the phone and a recovery code, which sign in once so that the person can add a new
 * passkey.
 */
export const recoverySignInPage = (c: FormContext, phone = '') =>
  page(
    stepView(c, '/authorize/recovery'),
    c.view.t('reset.recovery_title'),
    intro(c) +
      form(
        '/authorize/recovery',
        c,
        phoneField(c.view, phone, c.country, { error: errorAt(c.problem, 'phone') }) +
          recoveryCodeField(c) +
          platformAuthenticatorField(c),
      ) +
      `<p><a href="/authorize/signin?state=${encodeURIComponent(c.state)}">${c.view.t('auth.sign_in')}</a></p>`,
  );

/** A recovery code and the new PIN, for a phone that gets no code. */
export const recoveryCodePage = (c: FormContext) => {
  const t = c.view.t;
  const code = recoveryCodeField(c);
  return page(
    stepView(c, '/authorize/reset/recovery'),
    t('reset.recovery_title'),
    intro(c) + form('/authorize/reset/recovery', c, code + newPinField(c) + platformAuthenticatorField(c)),
  );
};

/**
 * After a reset that removed passkeys or recovery codes: what went and why, then on into the authorization
 * (the passkey offer, consent or the app). The English title is a contract ("Your new PIN is set").
 */
export const resetRemovedPage = (c: FormContext, removed: RemovedByReset) => {
  const t = c.view.t;
  const what = [
    removed.passkeys > 0 ? `<li>${t('reset.removed_passkeys')}</li>` : '',
    removed.recovery_codes ? `<li>${t('reset.removed_recovery_codes')}</li>` : '',
  ].join('');
  return page(
    stepView(c),
    t('reset.removed_title'),
    `<ul>${what}</ul><p>${t('reset.removed_why')}</p>${form('/authorize/reset/continue', c, platformAuthenticatorField(c))}`,
  );
};
