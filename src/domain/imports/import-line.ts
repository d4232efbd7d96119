// One line of Callsign's own import format (JSON Lines): what an account brought from elsewhere is made of.
// `phone` is required and normalized as at sign-up; everything else is optional. A value the account can do
// without (a handle that will not do, a language that is no tag) is left for the import to choose; a value the
// operator gave on purpose and that is wrong (metadata out of bounds, a date that is none) fails the line.
//
// Rules it enforces:
// - A line passes the same text checks as a request body (input-text.ts): no U+0000, no lone surrogate in a
//   key or a value, no nesting past the limit; else the line fails alone, naming the field.
// - `created_at` lies between 1970-01-01 and a day after now (PostgreSQL stores years past 9999 nowhere, and a
//   date to come is a mistake in the export).
import { DomainError } from '../errors.ts';
import { badTextPath } from '../input-text.ts';
import { parsePhone } from '../phone.ts';
import { assertMetadata } from '../profiles/merge-patch.ts';
import { parseLanguage } from '../profiles/profile-rules.ts';

export interface ImportCandidate {
  phone: string;
  country: string | null;
  externalId: string | null;
  name: string | null;
  /** as given, checked later against the rules and the accounts there are */
  handle: string | null;
  language: string | null;
  metadata: Record<string, unknown>;
  createdAt: Date | null;
  disabled: boolean;
}

/** The longest source id kept. */
const EXTERNAL_ID_MAX = 255;
/** A display name's most characters; a longer one is cut, as people keep the start of their name. */
const NAME_MAX = 100;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const badLine = (message: string) => new DomainError('INVALID_REQUEST', message);

function optionalString(line: Record<string, unknown>, field: string): string | null {
  const value = line[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw badLine(`${field} must be a string`);
  return value.trim() || null;
}

function externalIdOf(line: Record<string, unknown>): string | null {
  const id = optionalString(line, 'external_id');
  if (id !== null && id.length > EXTERNAL_ID_MAX)
    throw badLine(`external_id must be at most ${EXTERNAL_ID_MAX} characters`);
  return id;
}

function languageOf(line: Record<string, unknown>): string | null {
  try {
    return parseLanguage(optionalString(line, 'language'));
  } catch {
    return null;
  }
}

/** The earliest creation date an imported account may carry. */
const EARLIEST_CREATED_AT = Date.UTC(1970, 0, 1);
/** How far past now a creation date may be: clocks differ, exports do not come from the future. */
const CREATED_AT_LEEWAY_MS = 86_400_000;

function createdAtOf(line: Record<string, unknown>, now: Date): Date | null {
  const value = line.created_at;
  if (value === undefined || value === null) return null;
  const at = typeof value === 'string' || typeof value === 'number' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime()))
    throw badLine('created_at must be an ISO 8601 date or milliseconds since 1970');
  if (at.getTime() < EARLIEST_CREATED_AT || at.getTime() > now.getTime() + CREATED_AT_LEEWAY_MS)
    throw badLine('created_at must lie between 1970-01-01 and a day from now');
  return at;
}

/** A line as an account to create; a DomainError names what is wrong with it. */
export function parseImportLine(line: unknown, now: Date): ImportCandidate {
  if (!isObject(line)) throw badLine('a line must be a JSON object');
  const bad = badTextPath(line);
  if (bad) throw badLine(`${bad.path || 'the line'} ${bad.problem}`);
  const phone = parsePhone(line.phone);
  const metadata = line.metadata ?? {};
  assertMetadata(metadata);
  if (line.disabled !== undefined && typeof line.disabled !== 'boolean')
    throw badLine('disabled must be true or false');
  return {
    phone: phone.e164,
    country: phone.country,
    externalId: externalIdOf(line),
    name: optionalString(line, 'name')?.slice(0, NAME_MAX) ?? null,
    handle: optionalString(line, 'handle'),
    language: languageOf(line),
    metadata,
    createdAt: createdAtOf(line, now),
    disabled: line.disabled === true,
  };
}
