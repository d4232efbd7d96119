import { fieldError } from '../errors.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObject = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7396 §2: objects merge key by key, null removes a key, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): Json {
  if (!isObject(patch)) return patch as Json;
  const out: Record<string, Json> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Metadata is a JSON object of at most 10 KB (UTF-8 bytes of its JSON), nested at most 5 deep. */
export const METADATA_MAX_BYTES = 10 * 1024;
export const METADATA_MAX_DEPTH = 5;

/** How deeply a value nests (an object or array is one level), measured by a loop and not by recursion. */
function depth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [v, level] = next;
    if (!isObject(v) && !Array.isArray(v)) continue;
    deepest = Math.max(deepest, level + 1);
    for (const child of Object.values(v as object)) stack.push([child, level + 1]);
  }
  return deepest;
}

export function assertMetadata(v: unknown): asserts v is Record<string, Json> {
  if (!isObject(v)) throw fieldError('INVALID_REQUEST', 'metadata', 'metadata must be a JSON object');
  // Depth first: measuring the size serialises the value, which recurses.
  if (depth(v) > METADATA_MAX_DEPTH)
    throw fieldError('INVALID_REQUEST', 'metadata', 'metadata may nest at most 5 levels deep');
  if (Buffer.byteLength(JSON.stringify(v)) > METADATA_MAX_BYTES) {
    throw fieldError('INVALID_REQUEST', 'metadata', 'metadata must be at most 10 KB');
  }
}
