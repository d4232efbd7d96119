import { type Logger, pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import type { LogFormat } from '../config/config.ts';
import { activeTraceId } from './tracing.ts';

// Secrets never reach a log line: credentials in headers and every secret-bearing body field are redacted,
// wherever a log call puts them.
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.pin',
  '*.code',
  '*.temp_token',
  '*.access_token',
  '*.refresh_token',
  '*.client_secret',
  '*.token',
  '*.secret',
  '*.api_key',
  'body',
];

/**
 * Query parameters masked in a logged URL: every secret-bearing field (a client sending `?access_token=`), and
 * P98 the ones that carry a person: a phone number (`/api/v1/users?phone=`, the authorization page's
 * `login_hint`, the admin search `q`) or an ID token full of their claims (`id_token_hint`, on the logout
 * and, on /authorize).
 * Bodies are not logged at all.
 */
const MASKED_QUERY_FIELDS = new Set([
  ...REDACT_PATHS.filter((p) => p.startsWith('*.')).map((p) => p.slice(2)),
  'phone',
  'login_hint',
  'q',
  'id_token_hint',
  // the hosted page's sealed state (the language menu's way back carries it), and a way back that may hold
  // it or a verification link's token
  'state',
  'back',
]);

/**
 * A request's URL as logged: the verification link's token (a one-time credential, D38) and the query
 * parameters above are masked. The sealed state of the authorization page (`state`) and the language menu's
 * `back` are masked too: either may carry a step of someone's sign-up.
 */
function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(/^\/verify\/[^/]+/, '/verify/[redacted]');
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0];
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {}
      return MASKED_QUERY_FIELDS.has(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${path}?${query.join('&')}`;
}

/** Fastify's request fields (it logs `{req: request}` on each request), with the URL made loggable. */
const serializers = {
  req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
    method: req.method,
    url: loggableUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
  }),
};

/**
 * Where the log goes and how it reads: one JSON object per line for a log collector, or, when the output is a
 * terminal a person reads (`npm start` in a shell), pino-pretty's coloured lines. `LOG_FORMAT` chooses; its
 * default `auto` is pretty exactly when the stream is a TTY.
 */

export function createLogger(
  level: string,
  destination: NodeJS.WritableStream = process.stdout,
  format: LogFormat = 'auto',
): Logger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers,
    // With traces on, each line logged inside a request (or any span) names its trace.
    mixin: () => {
      const traceId = activeTraceId();
      return traceId ? { trace_id: traceId } : {};
    },
  };
  const isTerminal = (destination as { isTTY?: boolean }).isTTY === true;
  if (format === 'pretty' || (format === 'auto' && isTerminal)) {
    const pretty = PinoPretty({
      destination,
      sync: true,
      colorize: isTerminal,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
    });
    return pino(options, pretty);
  }
  return pino(options, destination as pino.DestinationStream);
}
