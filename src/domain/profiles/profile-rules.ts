import type { ProfileFields } from '../../storage/repositories/users.ts';
import { fieldError } from '../errors.ts';
import { assertAcceptableHandle } from './handle-rules.ts';

const EDITABLE = ['name', 'bio', 'avatar_url', 'language', 'handle'] as const;

function optionalText(field: string, value: unknown, max: number, min = 0): string | null {
  if (value === null) return null;
  if (typeof value !== 'string')
    throw fieldError('INVALID_REQUEST', field, `${field} must be a string or null`);
  const v = value.trim();
  if (v.length < min || v.length > max) {
    throw fieldError(
      'INVALID_REQUEST',
      field,
      `${field} must be ${min ? `${min}-` : 'at most '}${max} characters`,
    );
  }
  return v === '' ? null : v;
}

/** An https URL of at most 2048 characters. */
function avatarUrl(value: unknown): string | null {
  const v = optionalText('avatar_url', value, 2048);
  if (v === null) return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw fieldError('INVALID_REQUEST', 'avatar_url', 'avatar_url must be an https URL');
  }
  if (url.protocol !== 'https:')
    throw fieldError('INVALID_REQUEST', 'avatar_url', 'avatar_url must be an https URL');
  return v;
}

/** A BCP 47 tag of at most 35 characters, stored in its canonical case (en-us -> en-US). */
export function parseLanguage(value: unknown): string | null {
  const v = optionalText('language', value, 35);
  if (v === null) return null;
  try {
    return Intl.getCanonicalLocales(v)[0];
  } catch {
    throw fieldError(
      'INVALID_REQUEST',
      'language',
      'language must be a BCP 47 language tag, e.g. en or pt-BR',
    );
  }
}

/** Validates the fields PATCH /users/me supplies; absent fields stay absent (only supplied fields change). */
export function parseProfilePatch(body: Record<string, unknown>): ProfileFields {
  const unknown = Object.keys(body).filter((k) => !(EDITABLE as readonly string[]).includes(k));
  if (unknown.length) {
    throw fieldError(
      'INVALID_REQUEST',
      unknown[0],
      `${unknown[0]} cannot be changed here; editable: ${EDITABLE.join(', ')}`,
    );
  }
  const out: ProfileFields = {};
  if ('name' in body) out.name = body.name === null ? null : optionalText('name', body.name, 100, 1);
  if ('bio' in body) out.bio = optionalText('bio', body.bio, 500);
  if ('avatar_url' in body) out.avatar_url = avatarUrl(body.avatar_url);
  if ('language' in body) out.language = parseLanguage(body.language);
  if ('handle' in body) {
    assertAcceptableHandle(body.handle);
    out.handle = body.handle;
  }
  return out;
}
