// A receiver's check of Callsign's webhook deliveries. Each delivery is signed twice: X-Service-Signature (hex
// HMAC-SHA256 of "timestamp.body", keyed with the secret's UTF-8 bytes) and the Standard Webhooks headers (base64
// HMAC-SHA256 of "id.timestamp.body", keyed with the base64 part after "whsec_"; during a secret roll several,
// space-separated). One valid signature of either scheme passes, within 300 s of the delivery's timestamp.
// Web Crypto only, so it runs on Node.js, Deno, Bun and edge runtimes alike.

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** How far a delivery's timestamp may be from now, in seconds. */
const DEFAULT_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof Headers === 'function' && headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  return undefined;
}

async function hmac(key: Uint8Array<ArrayBuffer>, text: string): Promise<Uint8Array> {
  const imported = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return new Uint8Array(await crypto.subtle.sign('HMAC', imported, encoder.encode(text)));
}

const hexOf = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const base64Of = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const bytesOfBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** Equal strings, compared in time that does not depend on where they differ. */
function same(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * The delivery's event, once its signature and timestamp pass; a WebhookVerificationError otherwise.
 * `body` is the request body exactly as received (not re-serialized JSON).
 */
export async function verifyWebhook(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): Promise<WebhookEvent> {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const timestamp = headerOf(headers, 'x-service-timestamp') ?? headerOf(headers, 'webhook-timestamp');
  if (!timestamp || !/^\d+$/.test(timestamp))
    throw new WebhookVerificationError('missing or malformed timestamp');
  const nowSeconds = (options.now ?? Date.now()) / 1000;
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS))
    throw new WebhookVerificationError('timestamp outside the tolerance');
  if (!(await signedBy(secret, timestamp, text, headers)))
    throw new WebhookVerificationError('signature does not match');
  return JSON.parse(text) as WebhookEvent;
}

async function signedBy(secret: string, timestamp: string, body: string, headers: WebhookHeaders) {
  const service = headerOf(headers, 'x-service-signature');
  if (service !== undefined) {
    const expected = `sha256=${hexOf(await hmac(encoder.encode(secret), `${timestamp}.${body}`))}`;
    if (same(service, expected)) return true;
  }
  const standard = headerOf(headers, 'webhook-signature');
  const id = headerOf(headers, 'webhook-id');
  if (standard === undefined || id === undefined || headerOf(headers, 'webhook-timestamp') !== timestamp)
    return false;
  let key: Uint8Array<ArrayBuffer>;
  try {
    key = bytesOfBase64(secret.replace(/^whsec_/, ''));
  } catch {
    return false;
  }
  const expected = `v1,${base64Of(await hmac(key, `${id}.${timestamp}.${body}`))}`;
  return standard.split(' ').some((signature) => same(signature, expected));
}
