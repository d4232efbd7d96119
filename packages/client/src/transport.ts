// One request to Callsign and its answer: JSON in, the REST envelope's `data` (or /api/v1's plain body) out, and
// every error answer as a CallsignError, every failure to get one as a CallsignNetworkError.
import type { BodyOf, DataOf, Method, Path, PathParamsOf, QueryOf } from './api-types.js';
import { CallsignError, CallsignNetworkError } from './errors.js';

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

export interface CallOptions<P extends Path, M extends Method> {
  params?: PathParamsOf<P, M>;
  query?: QueryOf<P, M>;
  body?: BodyOf<P, M>;
  /** a bearer token: a user's access token, or a server's API key */
  token?: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function addressOf(baseUrl: string, path: string, params: unknown, query: unknown): string {
  const values = isObject(params) ? params : {};
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
  const search = new URLSearchParams();
  if (isObject(query))
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) search.set(name, String(value));
  const rest = search.size > 0 ? `?${search}` : '';
  return `${baseUrl}${filled}${rest}`;
}

/** The error an answer that is not a success carries: the REST envelope's, or /api/v1's `{error, error_description}`. */
function errorOf(status: number, body: unknown, requestId: string | undefined): Error {
  if (isObject(body) && isObject(body.error) && typeof body.error.code === 'string') {
    const { code, message, details } = body.error;
    const shown = typeof message === 'string' ? message : code;
    return new CallsignError(code, shown, status, isObject(details) ? details : {}, requestId);
  }
  if (isObject(body) && typeof body.error === 'string') {
    const message = typeof body.error_description === 'string' ? body.error_description : body.error;
    return new CallsignError(body.error, message, status, {}, requestId);
  }
  return new CallsignNetworkError(`the answer (HTTP ${status}) was not Callsign's`);
}

export class Transport {
  readonly baseUrl: string;
  constructor(
    baseUrl: string,
    private readonly fetchImpl: Fetch,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async call<P extends Path, M extends Method>(
    method: M,
    path: P,
    options: CallOptions<P, M> = {},
  ): Promise<DataOf<P, M>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const address = addressOf(this.baseUrl, path, options.params, options.query);
    let answer: Response;
    try {
      answer = await this.fetchImpl(address, {
        method: method.toUpperCase(),
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
    } catch (cause) {
      throw new CallsignNetworkError(`no answer from ${this.baseUrl}`, { cause });
    }
    const requestId = answer.headers.get('x-request-id') ?? undefined;
    const text = await answer.text().catch(() => '');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch (cause) {
      throw new CallsignNetworkError(`the answer (HTTP ${answer.status}) was not JSON`, { cause });
    }
    if (!answer.ok) throw errorOf(answer.status, body, requestId);
    const data = isObject(body) && body.success === true && 'data' in body ? body.data : body;
    return data as DataOf<P, M>;
  }
}
