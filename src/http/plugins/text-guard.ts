import type { FastifyInstance, FastifyRequest } from 'fastify';

const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
const SURROGATE_MESSAGE = 'must be well-formed Unicode: it holds a lone surrogate (such as \\ud800)';

/**
 * How deep parsed input may nest. The deepest any field of ours goes is metadata (at most 5 levels, D13)
 * inside a body; anything deeper is refused before code that walks it by recursion (a merge, a size
 * check, JSON.stringify) could overflow the stack on a body nested 150,000 levels deep.
 */
export const MAX_INPUT_DEPTH = 32;
const DEPTH_MESSAGE = `must not nest deeper than ${MAX_INPUT_DEPTH} levels`;

/** What is wrong with a string of input, if anything. */
const textProblem = (s: string) =>
  s.includes(NUL) ? NUL_MESSAGE : s.isWellFormed() ? undefined : SURROGATE_MESSAGE;

/**
 * Where a U+0000 or a lone surrogate is in parsed input, strings and object keys however deep: a dotted path
 * ('' for the value itself) and what is wrong; else whether it nests deeper than MAX_INPUT_DEPTH; undefined
 * when there is nothing wrong. A loop, not recursion: a deeply nested body must not overflow the stack.
 */
export function badTextPath(value: unknown): { path: string; problem: string } | undefined {
  const stack: Array<[unknown, string, number]> = [[value, '', 0]];
  let tooDeep = false; // reported once no text problem is found: that one names its field
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, path, depth] = next;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) return { path, problem };
    } else if (Array.isArray(v) || isPlainObject(v)) {
      tooDeep ||= depth >= MAX_INPUT_DEPTH;
      for (const [key, child] of Object.entries(v as object)) {
        const at = path ? `${path}.${key}` : key;
        const problem = textProblem(key);
        if (problem) return { path: at.replaceAll(NUL, '\\0').toWellFormed(), problem };
        stack.push([child, at, depth + 1]);
      }
    }
  }
  return tooDeep ? { path: '', problem: DEPTH_MESSAGE } : undefined;
}

/** Objects as JSON, forms and query strings parse to (whose prototypes lead to Object, or to nothing), not buffers. */
const isPlainObject = (v: unknown) => {
  if (typeof v !== 'object' || v === null) return false;
  const ctor = Object.getPrototypeOf(v)?.constructor;
  return ctor === Object || ctor === undefined;
};

/**
 * PostgreSQL's text and jsonb cannot hold U+0000 and no field of ours has a use for it; nor a
 * lone surrogate, which JSON's `\\ud800` escape can carry (jsonb refuses it, a text column would silently
 * hold U+FFFD instead). Either is refused as soon as the request is parsed, before anything reads or writes
 * it (rate-limit keys included). The error has the shape of a schema error, which every surface already
 * answers in its own format (REST envelope, RFC 6749 `invalid_request`, an error page). A route that must
 * place the error itself (GET /authorize, whose early errors show a page) says `ownNulCheck`.
 */
export function registerTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (request.routeOptions.config.ownNulCheck) return;
    for (const [part, value] of [
      ['params', request.params],
      ['querystring', request.query],
      ['body', request.body],
    ] as const) {
      const found = badTextPath(value);
      if (found === undefined) continue;
      const { path, problem } = found;
      const at = path.length > 80 ? `${path.slice(0, 80)}...` : path; // a deep path, shown in short
      throw Object.assign(new Error(`${at || part} ${problem}`), {
        statusCode: 400,
        validationContext: part,
        validation: [
          {
            instancePath: at ? `/${at.replaceAll('.', '/')}` : '',
            keyword: 'nul',
            params: {},
            message: problem,
          },
        ],
      });
    }
  });
}
