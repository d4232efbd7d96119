import http from 'node:http';
import https from 'node:https';
import { outboundCall } from '../observability/tracing.ts';
import { checkedTarget, type Resolver, systemResolver } from './outbound-addresses.ts';

/** A logo is small: at most 1 MB, fetched within 5 s. */
export const IMAGE_MAX_BYTES = 1024 * 1024;
export const IMAGE_TIMEOUT_MS = 5000;
/** A client's JWK Set is smaller still: at most 64 kB, fetched within 5 s. */
export const JWKS_MAX_BYTES = 64 * 1024;

export type Fetched = { data: Buffer } | { refused: string };
export type OutboundGet = (url: string) => Promise<Fetched>;

export interface OutboundGetOptions {
  allowPrivateNetworks: boolean;
  /** DNS by default; tests map names to addresses of their choosing */
  resolve?: Resolver;
  timeoutMs?: number;
  /** what the request accepts, and who it says it is */
  accept?: string;
  userAgent?: string;
  maxBytes?: number;
}

/** GETs an image from an address an operator gave (a client's logo_uri, BRAND_LOGO_URL). */
export const imageFetcher = (options: OutboundGetOptions): OutboundGet =>
  outboundGet({ accept: 'image/png, image/jpeg, image/webp', userAgent: 'Callsign-Logos', ...options });

/** GETs a client's JWK Set from its `jwks_uri`. */
export const jwksFetcher = (options: OutboundGetOptions): OutboundGet =>
  outboundGet({
    accept: 'application/jwk-set+json, application/json',
    userAgent: 'Callsign-Client-Keys',
    maxBytes: JWKS_MAX_BYTES,
    ...options,
  });

/**
 * GETs what lies at an address a client or operator gave under the webhook rules of D33: only the addresses
 * they allow, no redirects, 200 alone, at most `maxBytes`, within the time allowed. What the bytes are is for
 * the caller to check.
 */
export function outboundGet(options: OutboundGetOptions): OutboundGet {
  const resolve = options.resolve ?? systemResolver;
  const timeoutMs = options.timeoutMs ?? IMAGE_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? IMAGE_MAX_BYTES;
  return async (url) => {
    const target = new URL(url);
    const checked = await checkedTarget(target, options.allowPrivateNetworks, resolve);
    if ('refused' in checked) return checked;
    const vendor = options.userAgent ?? 'Callsign';
    return outboundCall(
      vendor,
      { url: target, method: 'GET' },
      (traceparent) =>
        new Promise<Fetched>((settle) => {
          let done = false;
          const finish = (answer: Fetched) => {
            if (done) return;
            done = true;
            clearTimeout(timer);
            request.destroy();
            settle(answer);
          };
          const request = (target.protocol === 'https:' ? https : http).get(
            target,
            {
              lookup: checked.lookup,
              headers: { accept: options.accept ?? '*/*', 'user-agent': vendor, ...traceparent },
            },
            (response) => {
              const status = response.statusCode ?? 0;
              if (status !== 200)
                return finish({
                  refused: `the server answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
                });
              const chunks: Buffer[] = [];
              let size = 0;
              response.on('data', (chunk: Buffer) => {
                size += chunk.length;
                if (size > maxBytes) finish({ refused: `the answer is larger than ${maxBytes} bytes` });
                else chunks.push(chunk);
              });
              response.once('end', () => finish({ data: Buffer.concat(chunks) }));
              response.once('error', () => finish({ refused: 'the connection broke mid-answer' }));
            },
          );
          const timer = setTimeout(() => finish({ refused: `no answer within ${timeoutMs} ms` }), timeoutMs);
          request.once('error', (err) =>
            finish({
              refused: `${(err as NodeJS.ErrnoException).code ?? 'connection failed'}: ${err.message}`,
            }),
          );
        }),
    );
  };
}
