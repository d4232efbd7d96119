import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_PAGE_PATH } from '../../domain/clients/account-page-client.ts';
import { DomainError } from '../../domain/errors.ts';
import { PageError } from '../errors/pages.ts';
import { REST_STATUS } from '../errors/rest-statuses.ts';
import { browserAnswer } from '../oauth/passkey-routes.ts';
import { RegistrationResponse } from '../rest/passkey-schemas.ts';
import { accountForm } from './account-changes.ts';
import type { AccountAnswers, AccountServices } from './account-context.ts';

/**
 * The account page's passkeys: the options the page's script needs to create one (JSON), keeping the one the
 * browser made, renaming and removing one. Creating and removing need a recent sign-in, as the REST calls do
 * (the passkeys room checks it against when this browser signed in).
 */
export function accountPasskeyRoutes(fastify: FastifyInstance, c: AccountServices, a: AccountAnswers) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(`${ACCOUNT_PAGE_PATH}/passkey/options`, accountForm('ceremony'), async (request, reply) => {
    const { who } = await a.checkedPost(request, request.body);
    if (!who) throw new PageError(401, 'error.signin_expired');
    const options = await c.passkeys
      .registrationOptions({ userId: who.userId, authTime: who.authTime })
      .catch((err: unknown) => {
        if (err instanceof DomainError) throw new PageError(REST_STATUS[err.code], 'error.check_input');
        throw err;
      });
    return reply.header('Cache-Control', 'no-store').send(options);
  });

  app.post(`${ACCOUNT_PAGE_PATH}/passkey`, accountForm('response'), async (request, reply) => {
    const { who, returnTo } = await a.checkedPost(request, request.body);
    if (!who) return a.toPage(reply, returnTo);
    try {
      const answer = browserAnswer(RegistrationResponse, request.body.response);
      await c.passkeys.register(
        { userId: who.userId, authTime: who.authTime },
        { response: answer },
        request.headers['user-agent'],
      );
      return a.done(reply, 'account.passkey_added', returnTo);
    } catch (refused) {
      return a.show(request, reply, who, { returnTo, refused });
    }
  });

  app.post(`${ACCOUNT_PAGE_PATH}/passkey/rename`, accountForm('passkey', 'name'), async (request, reply) => {
    const { who, returnTo } = await a.checkedPost(request, request.body);
    if (!who) return a.toPage(reply, returnTo);
    try {
      await c.passkeys.rename(who.userId, request.body.passkey ?? '', request.body.name ?? '');
      return a.done(reply, 'account.passkey_renamed', returnTo);
    } catch (refused) {
      return a.show(request, reply, who, { returnTo, refused });
    }
  });

  app.post(`${ACCOUNT_PAGE_PATH}/passkey/remove`, accountForm('passkey'), async (request, reply) => {
    const { who, returnTo } = await a.checkedPost(request, request.body);
    if (!who) return a.toPage(reply, returnTo);
    try {
      await c.passkeys.remove({ userId: who.userId, authTime: who.authTime }, request.body.passkey ?? '');
      return a.done(reply, 'account.passkey_removed', returnTo);
    } catch (refused) {
      return a.show(request, reply, who, { returnTo, refused });
    }
  });
}
