import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { listOf } from '../admin/responses.ts';
import { hostCookies } from '../cookies/host-cookies.ts';
import type { Answered } from '../openapi-types.ts';
import { confirmPage } from '../pages/console/confirm-page.ts';
import type { Frame } from '../pages/console/layout.ts';
import { sendPage } from '../pages/page-reply.ts';

/** The services these routes use. */
type Services = Pick<Container, 'clock' | 'config' | 'consoleCallMark'>;

export const SESSION_COOKIE = 'callsign_console';
/** Carries `consoleCallMark`, by which the admin API knows a call the console made in process. */
export const CONSOLE_CALL_HEADER = 'x-callsign-console-call';
export type Form = Record<string, string | string[] | undefined>;

/** What the admin API answered a call: the body its route's schema gives, or its error's description. */
export type AdminAnswer<T> = { status: number; raw: Buffer; contentType: string | undefined } & (
  | { ok: true; body: T }
  | { ok: false; problem: string }
);

/** The body of an answer a page cannot go without: the admin API's refusal of it is the console's fault. */
export function bodyOf<T>(answer: AdminAnswer<T>): T {
  if (answer.ok) return answer.body;
  throw new Error(`the admin API answered ${answer.status}: ${answer.problem}`);
}

/** One call to the admin API, and the schema of what it answers (its route's own). */
export interface AdminCall<T extends TSchema> {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  answer: T;
}

/** What every console route uses: the admin API, its session, and how it answers. */
export interface ConsoleContext {
  /**
   * The console does nothing the admin API can't; it calls it, in process, with the admin token. As
   * the console, on behalf of the operator whose `request` this is (their address, its request id).
   */
  api<T extends TSchema>(request: FastifyRequest, call: AdminCall<T>): Promise<AdminAnswer<Answered<T>>>;
  frame(request: FastifyRequest, section: string, extra?: Partial<Frame>): Frame;
  page(reply: FastifyReply, body: string, status?: number): FastifyReply;
  /** 303 to a page, with a notice to show there. */
  seeOther(reply: FastifyReply, path: string, notice?: string): FastifyReply;
  cookie(name: string, value: string, path: string, maxAge: number): string;
  /** The console's named cookie the request carries. */
  cookieOf(request: FastifyRequest, name: string): string | undefined;
  /**
   * A danger action asks once more, JavaScript off too: a post without `confirm=yes` answers a page that says
   * what the action does, with the same form and `confirm=yes`; only that second post acts. Answers the page,
   * or undefined when the action may go ahead.
   */
  confirmFirst(
    request: FastifyRequest,
    reply: FastifyReply,
    ask: { question: string; button: string; back: string },
  ): FastifyReply | undefined;
}

export function consoleContext(root: FastifyInstance, c: Services): ConsoleContext {
  const authorization = `Bearer ${c.config.adminToken}`;
  const cookies = hostCookies(c.config.baseUrl);
  return {
    async api(request, { method = 'GET', path, body }) {
      const res = await root.inject({
        method,
        url: `/admin/v1${path}`,
        remoteAddress: request.ip,
        headers: {
          authorization,
          [CONSOLE_CALL_HEADER]: c.consoleCallMark,
          'x-request-id': request.id,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });
      const contentType = res.headers['content-type'] as string | undefined;
      const answered = { status: res.statusCode, raw: res.rawPayload, contentType };
      const json = contentType?.startsWith('application/json') ? JSON.parse(res.body) : undefined;
      // The admin API's answers are held to its routes' schemas by its own tests; the console reads them so.
      if (res.statusCode < 300) return { ...answered, ok: true, body: json };
      const problem = json?.error_description ?? `the admin API answered ${res.statusCode}`;
      return { ...answered, ok: false, problem: String(problem) };
    },
    frame: (request, section, extra = {}) => ({
      csrf: request.consoleCsrf ?? '',
      section,
      now: c.clock.now(),
      notice:
        typeof formOf(request.query).notice === 'string' ? one(formOf(request.query).notice) : undefined,
      ...extra,
    }),
    page: (reply, body, status = 200) => sendPage(reply, status, body),
    seeOther: (reply, path, notice) =>
      reply.redirect(
        notice ? `${path}${path.includes('?') ? '&' : '?'}notice=${encodeURIComponent(notice)}` : path,
        303,
      ),
    cookie: (name, value, path, maxAge) => cookies.set(name, value, { path, maxAge, sameSite: 'strict' }),
    cookieOf: (request, name) => cookies.get(request, name),
    confirmFirst(request, reply, ask) {
      const fields = formOf(request.body);
      if (one(fields.confirm) === 'yes') return undefined;
      const frame = { csrf: request.consoleCsrf ?? '', section: ask.back, now: c.clock.now() };
      return sendPage(reply, 200, confirmPage(frame, { ...ask, action: request.url, fields }));
    },
  };
}

/**
 * A request's form fields (or query, or path parameters) as a browser sends them: strings, and lists of
 * strings for repeated fields. Anything else (a JSON body of other types) is left out, so a page reads only
 * what a form can send.
 */
export function formOf(value: unknown): Form {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const form: Form = {};
  for (const [name, field] of Object.entries(value)) {
    if (typeof field === 'string') form[name] = field;
    else if (Array.isArray(field) && field.every((f) => typeof f === 'string')) form[name] = field;
  }
  return form;
}

/** A form field that may come once or many times (checkboxes), as a list. */
export const list = (v: string | string[] | undefined) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
export const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : (v ?? ''));

declare module 'fastify' {
  interface FastifyRequest {
    /** the signed-in console session's CSRF token */
    consoleCsrf?: string;
  }
}

/** A log of sends (webhook deliveries, back-channel logouts): its newest 100, of the page's `?status=`. */
export const sendLog = async <T extends TSchema>(
  ctx: ConsoleContext,
  request: FastifyRequest,
  path: string,
  row: T,
) => {
  const status = one(formOf(request.query).status) || undefined;
  const query = `limit=100${status ? `&status=${encodeURIComponent(status)}` : ''}`;
  const res = await ctx.api(request, { path: `${path}?${query}`, answer: listOf(row) });
  return { status, rows: res.ok ? res.body.data : [] };
};
