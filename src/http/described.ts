/**
 * An object schema that names and describes its fields for the OpenAPI document without constraining them:
 * where the domain checks the values and answers with codes of its own (RFC 6749 §5.2 on the token endpoint,
 * D21 on /api/v1), a schema error must not answer first.
 */
export const described = (fields: Record<string, string>) => ({
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(fields).map(([name, description]) => [name, { description }]),
  ),
});
