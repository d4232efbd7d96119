// Building blocks of the response schemas every surface documents. A response schema describes the answer for
// the OpenAPI document and types what the handler returns; it does not filter the answer, which is written as
// JSON as the handler built it (app.ts), and the tests check the answers against the schemas.
import { type Static, type TSchema, Type } from 'typebox';

/** A value as JSON carries it: the dates a schema allows as Date objects arrive as strings. */
export type OnTheWire<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? OnTheWire<U>[]
    : T extends object
      ? { [K in keyof T]: OnTheWire<T[K]> }
      : T;

/** What a caller reads of an answer its route's schema describes. */
export type Answered<S extends TSchema> = OnTheWire<Static<S>>;

/** A timestamp: written as an ISO 8601 string (a Date is serialized so). */
export const dateTime = (description?: string) =>
  Type.Unsafe<Date | string>({
    type: 'string',
    format: 'date-time',
    ...(description ? { description } : {}),
  });

/** Bytes of a file (an image), not JSON. */
export const binary = (description: string) =>
  Type.Unsafe<Buffer | Uint8Array>({ type: 'string', format: 'binary', description });

/** A value that may be null (never set, or cleared). */
export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `{error, error_description}`: the OAuth family's error body (RFC 6749 §5.2), also /api/v1's and the admin API's. */
export const errorBody = (codes: string) =>
  Type.Object(
    {
      error: Type.String({ description: codes }),
      error_description: Type.String({ description: 'what went wrong, for a developer to read' }),
    },
    {
      description: 'an error',
      examples: [{ error: 'invalid_request', error_description: 'token is required' }],
    },
  );

/** A page: an HTML document for a browser, documented as `text/html`. */
export const htmlPage = (description: string) => ({
  description,
  content: { 'text/html': { schema: Type.String({ description: 'an HTML document' }) } },
});

/** Plain text, documented as `text/plain`. */
export const plainText = (description: string) => ({
  description,
  content: { 'text/plain': { schema: Type.String() } },
});

/** A redirect: no body, the address in `Location`. */
export const redirect = (description: string) => ({ description, type: 'null' });
