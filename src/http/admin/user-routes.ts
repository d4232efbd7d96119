import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { overview } from '../../domain/operators/overview.ts';
import { Passkey } from '../rest/passkey-schemas.ts';
import { restConnectedApp, restPasskey } from '../rest/presenters.ts';
import { adminSession, adminUser } from './presenters.ts';
import { AccountDetail, AdminUser, adminAnswer, listOf, NoContent, Overview } from './responses.ts';
import { idParam, security } from './route-schema.ts';

/** The services these routes use. */
type Services = Pick<Container, 'adminUsers' | 'passkeys' | 'clock' | 'db'>;

const tags = ['Admin: users'];

/** Issue 8: what the console's users and overview pages show, for scripts too. */
export async function userAdminRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/users/:id',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary:
          'An account with its 100 most recently used active sessions (sessions_total counts them all), KYC status and the applications it allowed',
        response: adminAnswer(AccountDetail),
      },
    },
    async (request) => {
      const detail = await c.adminUsers.detail(request.params.id);
      return {
        ...adminUser(detail.user),
        metadata: detail.user.metadata,
        sessions: detail.sessions.map((s) => adminSession(s, detail.clientNames.get(s.client_id))),
        sessions_total: detail.sessionsTotal,
        kyc: detail.kyc,
        apps: detail.apps.map(restConnectedApp),
        passkeys: detail.passkeys.map(restPasskey),
        recovery_codes: detail.recoveryCodes,
      };
    },
  );
  app.post(
    '/users/:id/lock',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: 'Lock: end every session (reason admin) and refuse sign-in and PIN reset until unlocked',
        response: adminAnswer(AdminUser),
      },
    },
    async (request) => adminUser(await c.adminUsers.lock(request.params.id)),
  );
  app.post(
    '/users/:id/unlock',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: "Lift the operator's lock and the PIN lock",
        response: adminAnswer(AdminUser),
      },
    },
    async (request) => adminUser(await c.adminUsers.unlock(request.params.id)),
  );
  app.delete(
    '/users/:id/sessions/:session',
    {
      schema: {
        tags,
        security,
        params: Type.Object({ id: Type.String(), session: Type.String() }),
        summary: 'Revoke one session of the account (session.revoked, reason admin)',
        response: adminAnswer(NoContent, 204),
      },
    },
    async (request, reply) => {
      await c.adminUsers.revokeSession(request.params.id, request.params.session);
      return reply.status(204).send();
    },
  );
  passkeyAdminRoutes(fastify, c);
  app.get(
    '/overview',
    {
      schema: {
        tags,
        security,
        summary: 'Counts per hour over the last 24 hours, and active sessions',
        response: adminAnswer(Overview),
      },
    },
    async () => overview(c.db, c.clock),
  );
}

/** An account's passkeys, as the console's user page shows them, and an operator's removal of one. */
function passkeyAdminRoutes(fastify: FastifyInstance, c: Pick<Container, 'passkeys'>) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/users/:id/passkeys',
    {
      schema: {
        tags,
        security,
        params: idParam,
        summary: "The account's passkeys, the oldest first",
        response: adminAnswer(listOf(Passkey)),
      },
    },
    async (request) => ({ data: (await c.passkeys.ofAccount(request.params.id)).map(restPasskey) }),
  );
  app.delete(
    '/users/:id/passkeys/:passkey_id',
    {
      schema: {
        tags,
        security,
        params: Type.Object({ id: Type.String(), passkey_id: Type.String() }),
        summary: 'Remove one of the account’s passkeys (passkey.deleted)',
        response: adminAnswer(NoContent, 204),
      },
    },
    async (request, reply) => {
      await c.passkeys.removeOf(request.params.id, request.params.passkey_id);
      return reply.status(204).send();
    },
  );
}
