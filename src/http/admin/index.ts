import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { DomainError } from '../../domain/errors.ts';
import { type AdminAction, isKeptAdminAction } from '../../domain/operators/admin-actions.ts';
import { CONSOLE_CALL_HEADER } from '../console/console-context.ts';
import { adminErrorHandler } from '../errors/admin.ts';
import { bearerToken } from '../plugins/bearer.ts';
import { keepAdminAction } from './admin-trail.ts';
import { clientRoutes } from './client-routes.ts';
import { clientSecretRoutes } from './client-secret-routes.ts';
import { economicsRoutes } from './economics-routes.ts';
import { importRoutes } from './import-routes.ts';
import { keyRoutes } from './key-routes.ts';
import { kycAdminRoutes } from './kyc-routes.ts';
import { messageRoutes } from './message-routes.ts';
import { networkRoutes } from './network-routes.ts';
import { phoneRiskAdminRoutes } from './phone-risk-routes.ts';
import { smsRoutes } from './sms-routes.ts';
import { ssfStreamRoutes } from './ssf-stream-routes.ts';
import { userAdminRoutes } from './user-routes.ts';
import { userSearchRoutes } from './user-search-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';

/** The services these routes use. */
type Services = Pick<
  Container,
  | 'accounts'
  | 'adminActions'
  | 'adminUsers'
  | 'clientRegistration'
  | 'codeEconomics'
  | 'clients'
  | 'clock'
  | 'config'
  | 'consoleCallMark'
  | 'db'
  | 'keys'
  | 'kyc'
  | 'passkeys'
  | 'phoneRisk'
  | 'userImport'
  | 'reencryption'
  | 'smsBreaker'
  | 'messageRecords'
  | 'networkProofs'
  | 'signals'
  | 'webhooks'
>;

/** A route's path parameters, which the router always gives as strings. */
function pathParameters(params: unknown): Record<string, string> {
  if (typeof params !== 'object' || params === null) return {};
  return Object.fromEntries(Object.entries(params).filter((entry) => typeof entry[1] === 'string'));
}

/** /admin/v1, behind `Authorization: Bearer <ADMIN_TOKEN>`; registered only when ADMIN_TOKEN is set. */
export async function adminSurface(app: FastifyInstance, c: Services) {
  const adminToken = c.config.adminToken as string;
  app.setErrorHandler(adminErrorHandler);
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ error: 'not_found', error_description: 'no such admin route' }),
  );
  const authenticated = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request) => {
    const given = bearerToken(request);
    if (!given || !safeEqual(given, adminToken))
      throw new DomainError('INVALID_TOKEN', 'send the admin token as a bearer token');
    authenticated.add(request);
  });
  // Kept before the answer goes, so an operator who saw it succeed finds it in the trail.
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!authenticated.has(request) || !route || !isKeptAdminAction(request.method, route)) return payload;
    const mark = request.headers[CONSOLE_CALL_HEADER];
    const action: AdminAction = {
      source: typeof mark === 'string' && safeEqual(mark, c.consoleCallMark) ? 'console' : 'api',
      address: request.ip,
      request_id: request.id,
      method: request.method,
      route,
      // A read keeps what it asked for too (a search's words and filters); a change's body is never kept.
      params: {
        ...(request.method === 'GET' ? pathParameters(request.query) : {}),
        ...pathParameters(request.params),
      },
      status: reply.statusCode,
    };
    await keepAdminAction(c, request, action);
    return payload;
  });

  clientRoutes(app, c);
  clientSecretRoutes(app, c);
  keyRoutes(app, c);
  smsRoutes(app, c);
  economicsRoutes(app, c);
  messageRoutes(app, c);
  networkRoutes(app, c);
  await webhookRoutes(app, c);
  ssfStreamRoutes(app, c);
  await kycAdminRoutes(app, c);
  userSearchRoutes(app, c);
  await userAdminRoutes(app, c);
  phoneRiskAdminRoutes(app, c);
  importRoutes(app, c);
}
