import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AdminClientSettings } from '../config/admin-client-settings.ts';

// The CLI's admin commands call the running server's admin API over HTTP, so they work while the
// server holds the database (PGlite allows one process).

export type Json = Record<string, unknown>;

/**
 * An HTTP request by node:http (or https), its answer read whole as a Response. Not fetch: its parser is
 * compiled afresh in every process, which doubles the time a command takes.
 */
function send(url: URL, method: string, headers: Record<string, string>, body?: string): Promise<Response> {
  const client = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = client(url, { method, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('error', reject);
      answer.on('end', () => {
        const status = answer.statusCode ?? 500;
        const hasBody = status !== 204 && status !== 304;
        resolve(
          new Response(hasBody ? Buffer.concat(chunks) : null, {
            status,
            statusText: answer.statusMessage,
            headers: Object.entries(answer.headers).map(([k, v]) => [k, String(v)]),
          }),
        );
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One admin API call, answered as it comes; a refused call throws with the API's error text. */
export async function fetchAdmin(
  config: AdminClientSettings,
  method: string,
  path: string,
  body?: Json | { jsonLines: string },
): Promise<Response> {
  if (!config.adminToken)
    throw new Error('ADMIN_TOKEN is not set: the admin API is off (set it for the server and here)');
  let res: Response;
  try {
    res = await send(
      new URL(`${config.adminUrl}/admin/v1${path}`),
      method,
      {
        authorization: `Bearer ${config.adminToken}`,
        ...(body
          ? { 'content-type': 'jsonLines' in body ? 'application/x-ndjson' : 'application/json' }
          : {}),
      },
      body === undefined ? undefined : 'jsonLines' in body ? String(body.jsonLines) : JSON.stringify(body),
    );
  } catch (err) {
    throw new Error(
      `cannot reach the admin API at ${config.adminUrl}: ${(err as Error).message}. Is the server running? ` +
        'Name where it listens with --admin-url or CALLSIGN_ADMIN_URL, or the PORT (and HOST) it was started with; ' +
        'BASE_URL is its public address, not asked here',
    );
  }
  if (!res.ok) {
    const payload = (await res.json().catch(() => undefined)) as Json | undefined;
    throw new Error(`${payload?.error ?? res.status}: ${payload?.error_description ?? res.statusText}`);
  }
  return res;
}

/** One admin API call with a JSON answer (none for 204). */
export async function call(
  config: AdminClientSettings,
  method: string,
  path: string,
  body?: Json,
): Promise<Json | undefined> {
  const res = await fetchAdmin(config, method, path, body);
  return res.status === 204 ? undefined : ((await res.json()) as Json);
}

/** One record as text: a line per field, `name: value`, the values aligned; lists joined with commas. */
export function labelled(row: Json, fields: string[]): string {
  const width = Math.max(...fields.map((f) => f.length)) + 2;
  const shown = (v: unknown) => (Array.isArray(v) ? v.join(', ') || '-' : String(v ?? '-'));
  return fields.map((f) => `${`${f}:`.padEnd(width)}${shown(row[f])}`).join('\n');
}

/** A list: a header line of the column names above its rows, or `empty` (e.g. "no clients") when it has none. */
export const listing = (rows: Json[], columns: string[], empty: string) =>
  rows.length ? `${columns.join('  ')}\n${table(rows, columns)}` : empty;

/** Rows as text, one per line, columns two spaces apart; lists joined with commas. */
export const table = (rows: Json[], columns: string[]) =>
  rows
    .map((r) =>
      columns
        .map((c) => String(Array.isArray(r[c]) ? (r[c] as string[]).join(',') : (r[c] ?? '-')))
        .join('  '),
    )
    .join('\n');
