// The files other identity providers export, read as lines of Callsign's import format:
// - firebase: what `firebase auth:export --format=json` writes, `{users: [...]}`; a user is numbered by its place
//   in the list. Users without a phone number are skipped (`no_phone`).
// - supabase: JSON Lines of `auth.users` rows. Rows without a phone, without a confirmed one, or deleted are
//   skipped (`no_phone`, `phone_not_confirmed`, `deleted`); a ban still running imports the account locked.
// - jsonl: Callsign's own format, as it is.

export type SourceFormat = 'firebase' | 'supabase' | 'jsonl';
export const SOURCE_FORMATS: readonly SourceFormat[] = ['firebase', 'supabase', 'jsonl'];

/** One record of the source: a line of the import format, or why it is not imported. */
export type SourceLine =
  | { line: number; record: Record<string, unknown> }
  | { line: number; skip: string }
  | { line: number; error: string };

type Row = Record<string, unknown>;
const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

function firebaseUser(user: Row): Omit<Row, 'line'> | string {
  const phone = text(user.phoneNumber);
  if (!phone) return 'no_phone';
  let metadata: unknown;
  try {
    metadata = text(user.customAttributes) ? JSON.parse(user.customAttributes as string) : undefined;
  } catch {
    metadata = undefined;
  }
  return {
    phone,
    external_id: text(user.localId),
    name: text(user.displayName),
    created_at: text(user.createdAt) ? Number(user.createdAt) : undefined,
    disabled: user.disabled === true,
    metadata: isObject(metadata) ? metadata : undefined,
  };
}

function supabaseUser(row: Row, now: Date): Omit<Row, 'line'> | string {
  const digits = text(row.phone);
  if (!digits) return 'no_phone';
  if (!row.phone_confirmed_at) return 'phone_not_confirmed';
  if (row.deleted_at) return 'deleted';
  const meta = isObject(row.raw_user_meta_data) ? row.raw_user_meta_data : {};
  const banned = text(row.banned_until) ? new Date(row.banned_until as string) > now : false;
  return {
    phone: digits.startsWith('+') ? digits : `+${digits}`,
    external_id: text(row.id),
    name: text(meta.full_name) ?? text(meta.name),
    created_at: text(row.created_at),
    disabled: banned,
    metadata: Object.keys(meta).length > 0 ? meta : undefined,
  };
}

/** The lines of JSON Lines text that are not blank, each parsed or said not to be JSON, by their line number. */
export function jsonLines(
  source: string,
): Array<{ line: number; value: unknown } | { line: number; error: string }> {
  return source
    .split(/\r?\n/)
    .map((content, i) => ({ line: i + 1, content }))
    .filter(({ content }) => content.trim() !== '')
    .map(({ line, content }) => {
      try {
        return { line, value: JSON.parse(content) as unknown };
      } catch {
        return { line, error: 'not valid JSON' };
      }
    });
}

const asLine = (line: number, read: Omit<Row, 'line'> | string): SourceLine =>
  typeof read === 'string' ? { line, skip: read } : { line, record: read };

/** The source file's records as import lines; a file that is not of its format throws. */
export function readSource(format: SourceFormat, source: string, now: Date): SourceLine[] {
  if (format === 'firebase') {
    const parsed: unknown = JSON.parse(source);
    if (!isObject(parsed) || !Array.isArray(parsed.users))
      throw new Error(
        'not a Firebase export: expected {"users": [...]} (firebase auth:export --format=json)',
      );
    return parsed.users.map((user, i) =>
      isObject(user) ? asLine(i + 1, firebaseUser(user)) : { line: i + 1, error: 'not a user object' },
    );
  }
  return jsonLines(source).map((read) => {
    if ('error' in read) return read;
    if (!isObject(read.value)) return { line: read.line, error: 'a line must be a JSON object' };
    return format === 'supabase'
      ? asLine(read.line, supabaseUser(read.value, now))
      : { line: read.line, record: read.value };
  });
}
