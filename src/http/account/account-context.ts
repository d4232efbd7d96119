import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { accountPageLocation } from '../../domain/clients/account-page-client.ts';
import { accountReturnTo } from '../../domain/clients/account-return.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SignedIn } from '../../domain/oauth/authorization.ts';
import { RECENT_SIGN_IN_SECONDS } from '../../domain/sessions/recent-sign-in.ts';
import type { MessageKey } from '../../i18n/languages.ts';
import { CSRF_COOKIE, pageCookieOf, SSO_COOKIE } from '../cookies/page-cookies.ts';
import { type FormProblem, formProblem } from '../errors/page-messages.ts';
import { PageError } from '../errors/pages.ts';
import { REST_STATUS } from '../errors/rest-statuses.ts';
import type { PageFlow } from '../oauth/authorization-steps.ts';
import { accountPage } from '../pages/account-pages.ts';
import { viewOf } from '../pages/page-language.ts';

/** The services the account page uses. */
export type AccountServices = Pick<
  Container,
  | 'authorization'
  | 'clients'
  | 'clock'
  | 'config'
  | 'connectedApps'
  | 'defence'
  | 'deletion'
  | 'logos'
  | 'passkeys'
  | 'phoneChange'
  | 'pinChange'
  | 'profiles'
  | 'recoveryCodes'
  | 'sessions'
>;

/** What every form of the account page sends beside its own fields. */
export type AccountFormFields = { csrf?: string; return_to?: string };

/** The account page's way back to an app, where the clients room allows it (account-return.ts). */
export const checkedReturnTo = (c: Pick<AccountServices, 'clients'>, asked: string | undefined) =>
  accountReturnTo(c.clients, asked);

/** The account page's answers: the page under this browser's single sign-on, and its checked posts. */
export function accountAnswers(c: AccountServices, flow: PageFlow) {
  const signedInHere = (request: FastifyRequest) =>
    c.authorization.ssoUser(pageCookieOf(request, c.config.authUrl, SSO_COOKIE));

  /** A post of the page: its CSRF token matches, and the browser is still signed in (else back to the page). */
  const checkedPost = async (request: FastifyRequest, form: AccountFormFields | undefined) => {
    const csrf = pageCookieOf(request, c.config.authUrl, CSRF_COOKIE);
    if (!csrf || form?.csrf === undefined || !safeEqual(csrf, form.csrf))
      throw new PageError(400, 'error.form_expired');
    await flow.page.limit(request);
    const returnTo = await checkedReturnTo(c, form.return_to);
    return { who: await signedInHere(request), returnTo, csrf };
  };

  /** The page for the signed-in account, with what the last change did or why it was refused. */
  const show = async (
    request: FastifyRequest,
    reply: FastifyReply,
    who: SignedIn,
    shown: { returnTo?: string; notice?: MessageKey; refused?: unknown; typedPhone?: string },
  ) => {
    const account = await c.profiles.get(who.userId);
    const back = accountPageLocation(shown.returnTo);
    const view = viewOf(request, c, { account: account.language }, back);
    const problem = shown.refused === undefined ? undefined : pageProblem(c, view, shown.refused);
    const [sessions, apps, passkeys, recovery] = await Promise.all([
      c.sessions.listActive(who.userId),
      c.connectedApps.list(who.userId),
      c.config.signInMethods.has('passkey') ? c.passkeys.list(who.userId) : undefined,
      c.recoveryCodes.status(who.userId),
    ]);
    const now = c.clock.now().getTime();
    const status = shown.refused instanceof DomainError ? REST_STATUS[shown.refused.code] : 200;
    const html = accountPage({
      view,
      csrf: flow.page.csrfFor(request, reply),
      account,
      signedInAt: who.authTime,
      recent: now - who.authTime.getTime() <= RECENT_SIGN_IN_SECONDS * 1000,
      sessions: sessions.sessions,
      apps,
      passkeys,
      pins: c.config.signInMethods.has('pin'),
      recoveryCodesLeft: recovery.remaining,
      returnTo: shown.returnTo,
      notice: shown.notice,
      problem,
      typedPhone: shown.typedPhone,
    });
    return flow.page.html(reply, status, html);
  };

  /** After a change: the page again by GET, saying what changed (a reload does not post it twice). */
  const done = (reply: FastifyReply, notice: MessageKey, returnTo?: string) => {
    const at = new URL(accountPageLocation(returnTo), 'http://page');
    at.searchParams.set('done', notice.slice('account.'.length));
    return reply.redirect(`${at.pathname}${at.search}`, 303);
  };

  /** A post from a browser no longer signed in: back to the page, which signs it in first. */
  const toPage = (reply: FastifyReply, returnTo?: string) =>
    reply.redirect(accountPageLocation(returnTo), 303);

  /** A refusal on a page of its own (a step of the phone change): its words, and the answer's status. */
  const refusal = (view: ReturnType<typeof viewOf>, refused: unknown) => ({
    problem: pageProblem(c, view, refused),
    status: refused instanceof DomainError ? REST_STATUS[refused.code] : 200,
  });

  return { signedInHere, checkedPost, show, done, toPage, refusal };
}

export type AccountAnswers = ReturnType<typeof accountAnswers>;

/** Why a new PIN was refused, in the person's words: too easy to guess, or the PIN it replaces. */
const PIN_REFUSALS: Record<string, MessageKey> = {
  too_easy: 'error.pin_weak',
  same_as_current: 'account.pin_same',
};

/** A refusal in the person's words; only a domain error is one, anything else goes to the error page. */
function pageProblem(c: Pick<AccountServices, 'clock'>, view: ReturnType<typeof viewOf>, refused: unknown) {
  if (!(refused instanceof DomainError) || refused.code === 'INTERNAL_ERROR') throw refused;
  const problem: FormProblem = formProblem(
    view,
    refused,
    {
      FORBIDDEN: 'account.recent_required',
      NOT_FOUND: 'account.gone',
      HANDLE_COOLDOWN: 'account.handle_cooldown',
      INVALID_CREDENTIALS: 'account.pin_wrong',
      INVALID_PIN: PIN_REFUSALS[String(refused.details.reason)] ?? 'error.pin_format',
    },
    c.clock.now(),
  );
  return problem;
}
