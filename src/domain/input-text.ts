// What no text of input may hold, whichever surface it came by (a request, a line of an import): U+0000,
// which PostgreSQL's text and jsonb cannot store and no field has a use for; a lone surrogate, which JSON's
// `\ud800` escape can carry (jsonb refuses it, a text column would silently hold U+FFFD instead); and
// nesting deeper than MAX_INPUT_DEPTH, which code that walks a value by recursion could not survive.
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
