import type { FastifyInstance, FastifyRequest } from 'fastify';

const NUL = '\u0000';
const MESSAGE = 'must not contain the NUL character (U+0000)';

/**
 * Where a U+0000 is in parsed input, strings and object keys however deep: a dotted path, '' for the value
 * itself; undefined when there is none. A loop, not recursion: a deeply nested body must not overflow
 * the stack.
 */
function nulPath(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, path] = next;
    if (typeof v === 'string') {
      if (v.includes(NUL)) return path;
    } else if (Array.isArray(v) || isPlainObject(v)) {
      for (const [key, child] of Object.entries(v as object)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes(NUL)) return at.replaceAll(NUL, '\\0');
        stack.push([child, at]);
      }
    }
  }
  return undefined;
}

/** Objects as JSON, forms and query strings parse to (whose prototypes lead to Object, or to nothing), not buffers. */
const isPlainObject = (v: unknown) => {
  if (typeof v !== 'object' || v === null) return false;
  const ctor = Object.getPrototypeOf(v)?.constructor;
  return ctor === Object || ctor === undefined;
};

/**
 * P63: PostgreSQL's text and jsonb cannot hold U+0000 and no field of ours has a use for it, so it is refused
 * as soon as the request is parsed, before anything reads or writes it (rate-limit keys included). The error
 * has the shape of a schema error, which every surface already answers in its own format (REST envelope,
 * RFC 6749 `invalid_request`, an error page). A route that must place the error itself (GET /authorize,
 * D24) says `ownNulCheck`.
 */
export function registerNulGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (request.routeOptions.config.ownNulCheck) return;
    for (const [part, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const) {
      const found = nulPath(value);
      if (found === undefined) continue;
      const at = found.length > 80 ? `${found.slice(0, 80)}...` : found; // a deep path, shown in short
      throw Object.assign(new Error(`${at || part} ${MESSAGE}`), {
        statusCode: 400,
        validationContext: part,
        validation: [
          {
            instancePath: at ? `/${at.replaceAll('.', '/')}` : '',
            keyword: 'nul',
            params: {},
            message: MESSAGE,
          },
        ],
      });
    }
  });
}
