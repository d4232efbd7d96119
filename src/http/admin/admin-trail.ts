import type { FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { AdminAction } from '../../domain/operators/admin-actions.ts';

/** The services these routes use. */
type Services = Pick<Container, 'adminActions'>;

/**
 * Keeps an operator's action in the trail. The change has committed by then: a row the database
 * refuses goes to the log instead, and the answer stands.
 */
export async function keepAdminAction(c: Services, request: FastifyRequest, action: AdminAction) {
  await c.adminActions.record(action).catch((err) => {
    request.log.error({ err, action }, 'admin action not kept in the trail');
  });
}
