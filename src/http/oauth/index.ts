import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { accountPage } from '../account/index.ts';
import { offerDpopNonce } from '../errors/challenges.ts';
import { oauthErrorHandler } from '../errors/oauth.ts';
import { ssfErrorHandler } from '../errors/ssf.ts';
import { authorizeRoutes } from './authorize.ts';
import { deviceAuthorizationRoute } from './device-authorization-route.ts';
import { discoveryRoutes } from './discovery.ts';
import { parRoute } from './par-route.ts';
import { registrationRoutes } from './registration-routes.ts';
import { ssfConfigurationRoute } from './ssf-configuration-route.ts';
import { ssfRoutes } from './ssf-routes.ts';
import { tokenRoutes } from './token-routes.ts';

/** The OAuth surface: /oauth/* with RFC 6749 errors, and the hosted page with its own error page. */
export async function oauthSurface(app: FastifyInstance, c: Container) {
  await app.register(formbody, { bodyLimit: 64 * 1024 });
  await app.register(async (api) => {
    api.setErrorHandler(oauthErrorHandler);
    api.addHook('onRequest', offerDpopNonce(c.config.oauth.dpopNonceRequired, c.dpop));
    tokenRoutes(api, c);
    parRoute(api, c);
    deviceAuthorizationRoute(api, c);
    registrationRoutes(api, c);
    discoveryRoutes(api, c);
    ssfConfigurationRoute(api, c);
  });
  await app.register(async (signals) => {
    signals.setErrorHandler(ssfErrorHandler);
    ssfRoutes(signals, c);
  });
  await app.register(async (pages) => authorizeRoutes(pages, c));
  await app.register(async (pages) => accountPage(pages, c));
}
