import { type TOptional, type TUnknown, Type } from 'typebox';

/**
 * An object schema that names and describes its fields for the OpenAPI document without constraining them:
 * where the domain checks the values and answers with codes of its own (RFC 6749 §5.2 on the token endpoint,
 * /api/v1's errors, the authorization request's redirects), a schema error must not answer first. The
 * handler receives each field as `unknown`, for the domain's parser.
 */
export function described<K extends string>(fields: Record<K, string>) {
  const properties = {} as { [P in K]: TOptional<TUnknown> };
  for (const [name, description] of Object.entries<string>(fields))
    properties[name as K] = Type.Optional(Type.Unknown({ description }));
  return Type.Object(properties);
}

/**
 * The body of a hosted page's form: its CSRF token and sealed state, and its own fields, each a string as
 * a browser sends it. Anything else (a repeated field, JSON of other types) is malformed.
 */
export function pageForm<K extends string>(...fields: K[]) {
  const properties = {} as { [P in K | 'csrf' | 'state']: TOptional<ReturnType<typeof Type.String>> };
  for (const name of ['csrf', 'state', ...fields] as const) properties[name] = Type.Optional(Type.String());
  return Type.Object(properties);
}
