import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { hostCookies } from '../cookies/host-cookies.ts';
import { confirmPage } from '../pages/console/confirm-page.ts';
import type { Frame } from '../pages/console/layout.ts';
import { sendPage } from '../pages/page-reply.ts';

/** The services these routes use. */
type Services = Pick<Container, 'config' | 'consoleCallMark'>;

export const SESSION_COOKIE = 'callsign_console';
/** Carries `consoleCallMark`, by which the admin API knows a call the console made in process. */
export const CONSOLE_CALL_HEADER = 'x-callsign-console-call';
export type Form = Record<string, string | string[] | undefined>;

export interface AdminAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: admin API answers are read field by field by the pages
  body: any;
  raw: Buffer;
  contentType: string | undefined;
}

/** What every console route uses: the admin API, its session, and how it answers. */
export interface ConsoleContext {
  /**
   * The console does nothing the admin API can't; it calls it, in process, with the admin token. As
   * the console, on behalf of the operator whose `request` this is (their address, its request id).
   */
  api(request: FastifyRequest, method: string, path: string, body?: unknown): Promise<AdminAnswer>;
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
    async api(request, method, path, body) {
      const res = await root.inject({
        method: method as 'GET',
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
      return {
        status: res.statusCode,
        body: contentType?.startsWith('application/json') ? JSON.parse(res.body) : undefined,
        raw: res.rawPayload,
        contentType,
      };
    },
    frame: (request, section, extra = {}) => ({
      csrf: request.consoleCsrf ?? '',
      section,
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
      const frame = { csrf: request.consoleCsrf ?? '', section: ask.back };
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

/** The admin API's error, for the page to show. */
export const problem = (a: AdminAnswer) => a.body?.error_description ?? `the admin API answered ${a.status}`;

declare module 'fastify' {
  interface FastifyRequest {
    /** the signed-in console session's CSRF token */
    consoleCsrf?: string;
  }
}
