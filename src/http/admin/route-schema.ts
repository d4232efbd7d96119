// What admin routes share: the bearer scheme in the OpenAPI document, the `:id` path parameter and the query
// of a log of sends.

export const security = [{ bearer: [] }];
export const idParam = { type: 'object', properties: { id: { type: 'string' } } };

/** The `:id` of the route's path. */
export const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;

/** A newest-first log of sends (webhook deliveries, back-channel logouts), read by `parseSendLogPage`. */
export const sendLogQuery = {
  type: 'object',
  properties: {
    status: { type: 'string', description: 'pending, delivered or failed' },
    limit: { type: 'string', description: '1-200, 50 if absent' },
    before: { type: 'string', description: 'created_at of the last row of the previous page' },
  },
};
