import { type FormContext, signUpCodePage } from './authorize-pages.ts';
import { esc, hidden } from './html.ts';

// The code page's ways on besides the code: "Send a new code" (with its countdown), "Change number", and for a
// PIN reset "Use a recovery code instead". The English names are a contract like the other steps'.

export interface CodePageWays {
  /** the seconds until a new code may be asked for (0: now) */
  waitSeconds: number;
  /** the phone step this code's purpose started from */
  changeNumber: string;
  /** anything more beside the code (a PIN reset's recovery-code link) */
  beside?: string;
}

/** The code page of a sign-up, a sign-in by code or a PIN reset, with its ways on. */
export function codePage(c: FormContext, maskedPhone: string, ways: CodePageWays): string {
  const t = c.view.t;
  const countdown = esc(t('code.resend_in', { seconds: '%s' }));
  const resend = `<form method="post" action="/authorize/code/resend">${hidden('state', c.state)}${hidden('csrf', c.csrf)}<button type="submit" class="secondary" data-wait-seconds="${ways.waitSeconds}">${t('code.resend')}</button><p class="hint" data-countdown="${countdown}" aria-live="polite"></p></form>`;
  const change = `<p><a href="${esc(ways.changeNumber)}">${t('code.change_number')}</a></p>`;
  return signUpCodePage(
    c,
    maskedPhone,
    `${resend}${change}${ways.beside ?? ''}<script src="/assets/resend.js" defer></script>`,
  );
}
