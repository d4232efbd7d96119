import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { nullable } from '../openapi-types.ts';
import { adminUser } from './presenters.ts';
import { AdminUser, adminAnswer } from './responses.ts';
import { security } from './route-schema.ts';

/** A page of accounts found, and the cursor of the next. */
export const UserSearchPage = Type.Object({
  data: Type.Array(AdminUser),
  next_cursor: nullable(Type.String({ description: 'the next page: ask again with cursor=' })),
  total: Type.Integer({ description: 'the live accounts in all, whatever the search' }),
  total_estimated: Type.Boolean({
    description: 'true when total is estimated from a sample (a large table)',
  }),
});

/** The services these routes use. */
type Services = Pick<Container, 'adminUsers'>;

const tags = ['Admin: users'];

/** The operators' search of every live account, with filters, a page at a time. */
export function userSearchRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/users',
    {
      schema: {
        tags,
        security,
        summary:
          'Live accounts, newest first, a page at a time: q finds an id, a phone number, a handle, an imported id or a part of a name; kyc_status and a range of creation days filter',
        response: adminAnswer(UserSearchPage),
        querystring: Type.Object({
          q: Type.Optional(Type.String()),
          kyc_status: Type.Optional(Type.String({ description: 'none, pending, verified or rejected' })),
          created_from: Type.Optional(Type.String({ description: 'YYYY-MM-DD: created that day or later' })),
          created_to: Type.Optional(Type.String({ description: 'YYYY-MM-DD: created that day or earlier' })),
          limit: Type.Optional(Type.String({ description: '1-100, 50 by default' })),
          cursor: Type.Optional(Type.String({ description: 'the next_cursor of the page before' })),
        }),
      },
    },
    async (request) => {
      const [page, total] = await Promise.all([c.adminUsers.search(request.query), c.adminUsers.total()]);
      return {
        data: page.users.map(adminUser),
        next_cursor: page.nextCursor,
        total: total.count,
        total_estimated: total.estimated,
      };
    },
  );
}
