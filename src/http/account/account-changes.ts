import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_PAGE_PATH, accountPageLocation } from '../../domain/clients/account-page-client.ts';
import type { SignedIn } from '../../domain/oauth/authorization.ts';
import { assertRecentSignIn } from '../../domain/sessions/recent-sign-in.ts';
import { CSRF_COOKIE, pageCookie, pageCookieOf, SSO_COOKIE } from '../cookies/page-cookies.ts';
import { pageForm } from '../described.ts';
import { accountDeletedPage, recoveryCodesPage } from '../pages/account-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { sendPage } from '../pages/page-reply.ts';
import type { AccountAnswers, AccountFormFields, AccountServices } from './account-context.ts';

/** A form of the account page: its CSRF token, its way back, and its own fields, each a string. */
export const accountForm = <K extends string>(...fields: K[]) => ({
  schema: { hide: true, body: pageForm<'return_to' | K>('return_to', ...fields) },
});

/**
 * The account page's changes that need no WebAuthn: the profile, ending another sign-in, taking an app's
 * access back, a new PIN, a new set of recovery codes, and deleting the account. Each calls the REST call's own domain
 * rule, so it writes the same events.
 */
export function accountChangeRoutes(fastify: FastifyInstance, c: AccountServices, a: AccountAnswers) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  /** A change by the signed-in account; a browser no longer signed in goes back to the page (and its sign-in). */
  const change = async (
    request: FastifyRequest,
    form: AccountFormFields,
    reply: FastifyReply,
    act: (who: SignedIn, returnTo?: string) => Promise<unknown>,
  ) => {
    const { who, returnTo } = await a.checkedPost(request, form);
    if (!who) return a.toPage(reply, returnTo);
    try {
      return await act(who, returnTo);
    } catch (refused) {
      return a.show(request, reply, who, { returnTo, refused });
    }
  };

  app.post(`${ACCOUNT_PAGE_PATH}/profile`, accountForm('name', 'handle', 'language'), (request, reply) =>
    change(request, request.body, reply, async (who, returnTo) => {
      const { name = '', handle, language = '' } = request.body;
      const account = await c.profiles.get(who.userId);
      // The handle is sent only when it changed: a change is allowed once in 30 days.
      await c.profiles.update(who.userId, {
        name: name.trim() === '' ? null : name,
        language: language === '' ? null : language,
        ...(handle !== undefined && handle.trim() !== account.handle ? { handle: handle.trim() } : {}),
      });
      return a.done(reply, 'account.saved', returnTo);
    }),
  );

  app.post(`${ACCOUNT_PAGE_PATH}/session`, accountForm('session'), (request, reply) =>
    change(request, request.body, reply, async (who, returnTo) => {
      await c.sessions.revokeOwn(who.userId, request.body.session ?? '');
      return a.done(reply, 'account.session_ended', returnTo);
    }),
  );

  app.post(`${ACCOUNT_PAGE_PATH}/app`, accountForm('client_id'), (request, reply) =>
    change(request, request.body, reply, async (who, returnTo) => {
      await c.connectedApps.withdraw(who.userId, request.body.client_id ?? '');
      return a.done(reply, 'account.access_removed', returnTo);
    }),
  );

  app.post(`${ACCOUNT_PAGE_PATH}/pin`, accountForm('current_pin', 'new_pin'), (request, reply) =>
    change(request, request.body, reply, async (who, returnTo) => {
      const { current_pin = '', new_pin = '' } = request.body;
      // This browser stays signed in; every other sign-in of the account ends.
      const signOn = pageCookieOf(request, c.config.authUrl, SSO_COOKIE);
      await c.pinChange.change(who.userId, { current_pin, new_pin }, { signOn });
      return a.done(reply, 'account.pin_changed', returnTo);
    }),
  );

  app.post(`${ACCOUNT_PAGE_PATH}/recovery-codes`, accountForm('pin'), (request, reply) =>
    change(request, request.body, reply, async (who, returnTo) => {
      assertRecentSignIn(who.authTime, c.clock.now());
      const pin = request.body.pin === '' ? undefined : request.body.pin;
      const made = await c.recoveryCodes.generate(
        { userId: who.userId, auth: { authTime: who.authTime, amr: who.amr } },
        { pin },
      );
      const account = await c.profiles.get(who.userId);
      const view = viewOf(request, c, { account: account.language }, undefined);
      return sendPage(reply, 200, recoveryCodesPage(view, made.codes, accountPageLocation(returnTo)));
    }),
  );

  app.post(`${ACCOUNT_PAGE_PATH}/delete`, accountForm('pin', 'confirmation'), (request, reply) =>
    change(request, request.body, reply, async (who, returnTo) => {
      assertRecentSignIn(who.authTime, c.clock.now());
      const account = await c.profiles.get(who.userId);
      const { pin = '', confirmation = '' } = request.body;
      await c.deletion.deleteWithPin(who.userId, { pin, confirmation });
      await c.authorization.endSso(pageCookieOf(request, c.config.authUrl, SSO_COOKIE));
      reply.header('Set-Cookie', pageCookie(c.config.authUrl, SSO_COOKIE, '', 0));
      reply.header('Set-Cookie', pageCookie(c.config.authUrl, CSRF_COOKIE, '', 0));
      const view = viewOf(request, c, { account: account.language }, undefined);
      return sendPage(reply, 200, accountDeletedPage(view, returnTo));
    }),
  );
}
