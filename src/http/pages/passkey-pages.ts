import { errorAbove } from '../errors/page-messages.ts';
import { type FormContext, intro, stepView } from './authorize-pages.ts';
import { errorBox, page } from './html.ts';
import { onwardForm, PASSKEY_SCRIPTS, passkeyForm } from './passkey-forms.ts';

// The hosted pages' passkey steps after a sign-in (the sign-in page's own passkey form is passkey-forms.ts).

/** After a sign-up or a PIN's sign-in: "Create a passkey", or "Not now" (remembered in this browser). */
export const passkeyOfferPage = (c: FormContext) => {
  const t = c.view.t;
  const create = passkeyForm(c, {
    action: '/authorize/passkey/create',
    ceremony: 'register',
    button: t('passkey.create'),
    failed: t('passkey.create_failed'),
    primary: true,
  });
  return page(
    stepView(c),
    t('passkey.offer_title'),
    `${errorBox(errorAbove(c.problem))}<p>${t('passkey.offer_text')}</p>${create}${onwardForm(c, '/authorize/passkey/later', t('passkey.not_now'))}${PASSKEY_SCRIPTS}`,
  );
};

/** The client asked for a phishing-resistant sign-in: this account's passkey, or on without it. */
export const passkeyStepUpPage = (c: FormContext) => {
  const t = c.view.t;
  const confirm = passkeyForm(c, {
    action: '/authorize/passkey',
    ceremony: 'signin',
    button: t('passkey.sign_in'),
    failed: t('passkey.failed'),
    primary: true,
  });
  return page(
    stepView(c),
    t('passkey.step_up_title'),
    `${intro(c)}<p>${t('passkey.step_up_text', { client: c.client.client_name })}</p>${confirm}${onwardForm(c, '/authorize/passkey/skip', t('passkey.skip'))}${PASSKEY_SCRIPTS}`,
  );
};
