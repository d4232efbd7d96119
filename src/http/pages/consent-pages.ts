import type { AuthorizationRequest } from '../../domain/oauth/authorization-request.ts';
import type { LogoutReturn } from '../../domain/oauth/logout.ts';
import type { MessageKey } from '../../i18n/languages.ts';
import { tooManyMessage } from '../errors/page-messages.ts';
import type { ErrorPages } from '../errors/pages.ts';
import { clientLinks, type FormContext, signedInAs, stepView } from './authorize-pages.ts';
import { errorBox, hidden, page } from './html.ts';
import type { View } from './view.ts';

// The hosted authorization page's last steps and its dead ends: consent, signing out, and the error page.

const SCOPE_WORDS: Record<string, MessageKey> = {
  openid: 'scope.openid',
  profile: 'scope.profile',
  'profile:write': 'scope.profile_write',
  phone: 'scope.phone',
  email: 'scope.email',
  kyc: 'scope.kyc',
  'account:delete': 'scope.account_delete',
};

/** Allow or deny: what the app asks for; a device's request also says to allow only one's own device. */
export const consentPage = (c: FormContext, req: Pick<AuthorizationRequest, 'scope' | 'device'>) => {
  const t = c.view.t;
  const deviceNote = req.device === undefined ? '' : `<p class="notice">${t('device.consent_note')}</p>`;
  const items = req.scope
    .split(' ')
    .map((s) => `<li>${SCOPE_WORDS[s] ? t(SCOPE_WORDS[s]) : s.replace(/[^a-z0-9:_.-]/gi, '')}</li>`)
    .join('');
  return page(
    stepView(c),
    t('auth.consent_title'),
    `${c.notice ? `<p class="notice" role="status">${t(c.notice)}</p>` : ''}${signedInAs(c)}<p>${t('auth.would_like', { client: c.client.client_name })}</p><ul class="scopes">${items}</ul>${deviceNote}` +
      `<form method="post" action="/authorize/consent">${hidden('state', c.state)}${hidden('csrf', c.csrf)}<div class="actions">` +
      `<button type="submit" name="decision" value="allow">${t('auth.allow')}</button>` +
      `<button type="submit" name="decision" value="deny" class="secondary">${t('auth.deny')}</button></div></form>${clientLinks(c)}`,
  );
};

/**
 * RP-Initiated Logout's "Sign out?": the user is asked before a request that proves nothing ends their sign-in,
 * with the way back to the client it carries (checked again when it is posted).
 */
export const logoutConfirmPage = (v: View, csrf: string, back?: LogoutReturn) => {
  const way = back
    ? hidden('client_id', back.clientId) +
      hidden('post_logout_redirect_uri', back.uri) +
      (back.state === undefined ? '' : hidden('return_state', back.state))
    : '';
  return page(
    v,
    v.t('auth.logout_title'),
    `<p>${v.t('auth.logout_question')}</p>` +
      `<form method="post" action="/authorize/logout/confirm">${hidden('csrf', csrf)}${way}<button type="submit">${v.t('auth.sign_out')}</button></form>`,
  );
};

export const signedOutPage = (v: View) =>
  page(v, v.t('auth.signed_out_title'), `<p>${v.t('auth.signed_out')}</p>`);

/** The page for a sign-in that cannot go on; `key` says why. */
export const errorPage = (v: View, key: MessageKey) =>
  page(v, v.t('auth.error_title'), `${errorBox(v.t(key))}<p>${v.t('auth.go_back')}</p>`);

/** The sign-in surface's error pages (and those of the pages' assets and menu), in the view's language. */
export const errorPagesIn = (v: View): ErrorPages => ({
  refused: (key) => errorPage(v, key),
  tooMany: (wait) =>
    page(v, v.t('auth.error_title'), `${errorBox(tooManyMessage(v, wait))}<p>${v.t('auth.go_back')}</p>`),
  malformed: errorPage(v, 'error.malformed'),
  failed: errorPage(v, 'error.failed'),
  stopping: errorPage(v, 'error.stopping'),
});
