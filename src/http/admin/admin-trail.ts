import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import type { AdminAction as KeptAction } from '../../domain/operators/admin-actions.ts';
import { dateTime, nullable } from '../openapi-types.ts';

/** A row of the operators' trail, as the admin API answers it. */
export const AdminAction = Type.Object({
  id: Type.Integer(),
  at: dateTime(),
  source: Type.String({ description: 'api or console' }),
  address: nullable(Type.String()),
  request_id: Type.String(),
  method: Type.String(),
  route: Type.String(),
  params: Type.Record(Type.String(), Type.String()),
  status: Type.Integer(),
  on: Type.Optional(
    nullable(
      Type.String({
        description: 'in a page of the trail: the account (@handle) or client (name) it was on',
      }),
    ),
  ),
});

/** The services these routes use. */
type Services = Pick<Container, 'adminActions'>;

/**
 * Keeps an operator's action in the trail. The change has committed by then: a row the database
 * refuses goes to the log instead, and the answer stands.
 */
export async function keepAdminAction(c: Services, request: FastifyRequest, action: KeptAction) {
  await c.adminActions.record(action).catch((err) => {
    request.log.error({ err, action }, 'admin action not kept in the trail');
  });
}
