import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  ACCOUNT_PAGE_CLIENT_ID,
  ACCOUNT_PAGE_PATH,
  accountPageLocation,
} from '../../domain/clients/account-page-client.ts';
import type { AuthorizationRequest } from '../../domain/oauth/authorization-request.ts';
import type { MessageKey } from '../../i18n/languages.ts';
import { PageError } from '../errors/pages.ts';
import { authorizationStart } from '../oauth/authorization-start.ts';
import type { PageFlow } from '../oauth/authorization-steps.ts';
import { htmlPage, redirect } from '../openapi-types.ts';
import { accountChangeRoutes } from './account-changes.ts';
import { type AccountServices, accountAnswers, checkedReturnTo } from './account-context.ts';
import { accountPasskeyRoutes } from './account-passkeys.ts';
import { accountPhoneRoutes } from './account-phone.ts';

// The account page: a person's own profile, sign-ins, connected apps, PIN, passkeys, recovery codes and deletion,
// under the single sign-on of the hosted sign-in pages (so it lives beside them, under /authorize). A visit
// without one goes through the sign-in page and comes back.

/** The notices a change sends the page back with, by their name in the address. */
const NOTICES: Record<string, MessageKey> = {
  saved: 'account.saved',
  session_ended: 'account.session_ended',
  access_removed: 'account.access_removed',
  passkey_added: 'account.passkey_added',
  passkey_renamed: 'account.passkey_renamed',
  passkey_removed: 'account.passkey_removed',
  pin_changed: 'account.pin_changed',
  phone_changed: 'account.phone_changed',
};

const pageQuery = Type.Object({
  return_to: Type.Optional(
    Type.String({ description: "an address on the origin of one of the app's registered redirect URIs" }),
  ),
  done: Type.Optional(Type.String({ description: 'set by the page itself after a change' })),
});

export function accountRoutes(fastify: FastifyInstance, c: AccountServices, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const answers = accountAnswers(c, flow);
  const start = authorizationStart(c, flow);

  /** The sign-in pages for the account page's own client; `again` asks for a sign-in even under one. */
  const signIn = async (request: FastifyRequest, reply: FastifyReply, returnTo?: string, again = false) => {
    const client = await c.clients.findClient(ACCOUNT_PAGE_CLIENT_ID);
    if (!client) throw new PageError(404, 'error.start_again');
    const req: AuthorizationRequest = {
      clientId: client.client_id,
      redirectUri: client.redirect_uris[0] as string,
      scope: 'openid',
      state: returnTo ?? '',
      codeChallenge: '',
      nonce: null,
      ...(again ? { prompt: ['login'] } : {}),
    };
    return start(request, reply, req, client);
  };

  // Apps link to {auth_url}/account; the page itself is served where the single sign-on's cookie is sent.
  app.get(
    '/account',
    {
      // A page, not an API operation: it stays out of the OpenAPI document (docs/hosted-pages.md links it).
      schema: { hide: true, querystring: pageQuery, response: { 302: redirect('on to the account page') } },
    },
    async (request, reply) => reply.redirect(accountPageLocation(request.query.return_to), 302),
  );

  app.get(
    ACCOUNT_PAGE_PATH,
    { schema: { hide: true, querystring: pageQuery, response: { 200: htmlPage('the account page') } } },
    async (request, reply) => {
      await flow.page.limit(request);
      const returnTo = await checkedReturnTo(c, request.query.return_to);
      const who = await answers.signedInHere(request);
      if (!who) return signIn(request, reply, returnTo);
      const notice = request.query.done === undefined ? undefined : NOTICES[request.query.done];
      return answers.show(request, reply, who, { returnTo, notice });
    },
  );

  app.get(
    `${ACCOUNT_PAGE_PATH}/sign-in`,
    { schema: { hide: true, querystring: pageQuery } },
    async (request, reply) => {
      await flow.page.limit(request);
      return signIn(request, reply, await checkedReturnTo(c, request.query.return_to), true);
    },
  );

  accountChangeRoutes(fastify, c, answers);
  accountPhoneRoutes(fastify, c, answers, flow);
  accountPasskeyRoutes(fastify, c, answers);
}
