// The compiler of the routes' request schemas (bodies, query strings, path parameters), one for the process.
// A route's schema is written where the route is registered, so each app built in the process (a test builds
// its own) has schemas of its own that say the same. A validator is kept by what its schema says, and an app
// built again finds every validator compiled already: the same JSON Schema under the same options is the
// same check, whichever app asks, and the options are fixed in `app.ts`.
import { AjvCompiler } from '@fastify/ajv-compiler';

type ValidatorFactory = ReturnType<typeof AjvCompiler>;
/** What Fastify gives a route's validator compiler: the schema and where it is used. (The package's type says
 * Ajv's own `compile(schema)`, which is not what Fastify calls.) */
interface RoutePart {
  schema: unknown;
}
type CompileRoutePart = (part: RoutePart) => unknown;

/** Fastify's own compilers, one for each set of options and shared schemas. */
const fastifyCompilers = AjvCompiler();
/** What each of them compiled, by the text of the schema. */
const compiledBySchemaText = new WeakMap<CompileRoutePart, Map<string, unknown>>();

/** Fastify's `schemaController.compilersFactory.buildValidator`: its own, keeping what it compiles. */
export const requestValidators = ((externalSchemas, options) => {
  const compile = fastifyCompilers(externalSchemas, options) as unknown as CompileRoutePart;
  const compiled = compiledBySchemaText.get(compile) ?? new Map<string, unknown>();
  compiledBySchemaText.set(compile, compiled);
  return (part: RoutePart) => {
    const schemaText = JSON.stringify(part.schema);
    if (!compiled.has(schemaText)) compiled.set(schemaText, compile(part));
    return compiled.get(schemaText);
  };
}) as ValidatorFactory;
