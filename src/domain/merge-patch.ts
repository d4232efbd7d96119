import { fieldError } from './errors.ts';

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

/** D13: metadata is a JSON object of at most 10 KB (UTF-8 bytes of its JSON), nested at most 5 deep. */
export const METADATA_MAX_BYTES = 10 * 1024;
export const METADATA_MAX_DEPTH = 5;

const depth = (v: unknown): number =>
  isObject(v) || Array.isArray(v) ? 1 + Math.max(0, ...Object.values(v as object).map(depth)) : 0;

export function assertMetadata(v: unknown): asserts v is Record<string, Json> {
  if (!isObject(v)) throw fieldError('INVALID_REQUEST', 'metadata', 'metadata must be a JSON object');
  if (Buffer.byteLength(JSON.stringify(v)) > METADATA_MAX_BYTES) {
    throw fieldError('INVALID_REQUEST', 'metadata', 'metadata must be at most 10 KB');
  }
  if (depth(v) > METADATA_MAX_DEPTH)
    throw fieldError('INVALID_REQUEST', 'metadata', 'metadata may nest at most 5 levels deep');
}
