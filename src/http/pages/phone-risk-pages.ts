import type { MessageKey } from '../../i18n/languages.ts';
import { type FormContext, intro, stepView } from './authorize-pages.ts';
import { page } from './html.ts';
import { PASSKEY_SCRIPTS, passkeySignIn } from './passkey-forms.ts';
import { recoveryCodeLink } from './reset-pages.ts';

// The page a code step gets when the number's SIM changed recently or the number was recycled: why the code
// cannot be used, and the ways this account still has (its PIN to sign in, a passkey, a recovery code).

const WHY: Record<string, MessageKey> = {
  sim_swap: 'risk.sim_swap',
  number_recycled: 'risk.number_recycled',
  sim_check_unavailable: 'risk.sim_check_unavailable',
};

/** Whether a refusal's reason is one this page explains. */
export const isPhoneRisk = (reason: unknown): reason is string => typeof reason === 'string' && reason in WHY;

export function phoneRiskPage(c: FormContext, reason: string, alternatives: readonly string[]): string {
  const t = c.view.t;
  const state = encodeURIComponent(c.state);
  const ways = [
    alternatives.includes('pin')
      ? `<p><a href="/authorize/signin?state=${state}">${t('risk.use_pin')}</a></p>`
      : '',
    alternatives.includes('passkey') ? passkeySignIn({ ...c, passkeys: true }) + PASSKEY_SCRIPTS : '',
    alternatives.includes('recovery_code') ? recoveryCodeLink(c) : '',
  ].join('');
  return page(
    stepView(c),
    t('risk.title'),
    `${intro(c)}<p role="alert">${t(WHY[reason] ?? 'risk.sim_check_unavailable')}</p>${ways || `<p>${t('risk.no_other_way')}</p>`}`,
  );
}
