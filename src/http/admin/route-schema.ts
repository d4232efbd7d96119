// What every admin route shares: the bearer scheme in the OpenAPI document and the `:id` path parameter.

export const security = [{ bearer: [] }];
export const idParam = { type: 'object', properties: { id: { type: 'string' } } };

/** The `:id` of the route's path. */
export const idOf = (request: { params: unknown }) => (request.params as { id: string }).id;
