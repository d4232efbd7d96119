import { type Logger, pino } from 'pino';

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

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  return pino(
    { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    destination as pino.DestinationStream,
  );
}
