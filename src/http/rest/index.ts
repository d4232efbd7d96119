import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { restErrorHandler } from '../errors/rest.ts';
import { allowConfiguredOrigins } from '../plugins/browser-access.ts';
import { registerRestGuards } from '../plugins/rest-guards.ts';
import { accountAuthRoutes } from './account-auth.ts';
import { attestationRoutes } from './attestation.ts';
import { connectedAppRoutes } from './connected-apps.ts';
import { healthRoutes } from './health.ts';
import { kycRoutes } from './kyc.ts';
import { networkRoutes } from './network.ts';
import { otpRoutes } from './otp.ts';
import { passkeyRoutes, passkeySignInRoutes } from './passkeys.ts';
import { recoveryCodeRoutes } from './recovery-codes.ts';
import { sessionRoutes } from './sessions.ts';
import { tokenRoutes } from './tokens.ts';
import { userRoutes } from './users.ts';

/**
 * The REST surface: its own context, so its guards, its envelope and its browser access (CORS_ORIGINS) apply to
 * its routes only.
 */
export async function restSurface(app: FastifyInstance, c: Container) {
  app.setErrorHandler(restErrorHandler);
  registerRestGuards(app, c);
  const addPreflights = allowConfiguredOrigins(app, c.config.corsOrigins);
  healthRoutes(app, c);
  otpRoutes(app, c);
  attestationRoutes(app, c);
  networkRoutes(app, c);
  accountAuthRoutes(app, c);
  passkeySignInRoutes(app, c);
  passkeyRoutes(app, c);
  recoveryCodeRoutes(app, c);
  tokenRoutes(app, c);
  userRoutes(app, c);
  sessionRoutes(app, c);
  connectedAppRoutes(app, c);
  kycRoutes(app, c);
  addPreflights();
}
