// @ts-check
import { createHmac, timingSafeEqual } from 'node:crypto';

// D32: every delivery is signed twice. X-Service-Signature as the spec shows it (hex HMAC-SHA256 over
// "timestamp.body", keyed with the secret string's UTF-8 bytes), and the Standard Webhooks headers
// (base64 HMAC-SHA256 over "id.timestamp.body", keyed with the base64-decoded part after "whsec_").
// Plain JavaScript so that receivers import it on Node.js 20 without a TypeScript loader
// (`import { verifyWebhook } from 'callsign/webhooks'`); the service signs with the same code.

/** @param {string} secret */
const standardKey = (secret) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/** @param {string} secret @param {string} timestamp @param {string} body */
const serviceSignature = (secret, timestamp, body) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** @param {string} secret @param {string} id @param {string} timestamp @param {string} body */
const standardSignature = (secret, id, timestamp, body) =>
  `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;

/**
 * Headers for one attempt. `secrets[0]` keys X-Service-Signature (the spec's header holds one signature;
 * during a roll that is the previous secret, which receivers still hold); every secret signs the Standard
 * Webhooks header, space-separated, as that standard allows.
 * @param {string[]} secrets
 * @param {string} id
 * @param {number} timestamp Unix seconds
 * @param {string} body
 */
export function signDelivery(secrets, id, timestamp, body) {
  const ts = String(timestamp);
  return {
    'X-Service-Signature': serviceSignature(secrets[0], ts, body),
    'X-Service-Timestamp': ts,
    'webhook-id': id,
    'webhook-timestamp': ts,
    'webhook-signature': secrets.map((s) => standardSignature(s, id, ts, body)).join(' '),
  };
}

/** @param {string} a @param {string} b */
const same = (a, b) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export class WebhookVerificationError extends Error {}

/**
 * For receivers: checks that a delivery carries a valid signature made with `secret` (its
 * X-Service-Signature, or any of its Standard Webhooks signatures: during a secret roll either scheme may
 * hold the other secret's) and that its timestamp is within `toleranceSeconds` (300 by default, as the
 * spec advises) of `now`. Answers the parsed envelope; throws WebhookVerificationError.
 * @param {string} secret the endpoint's signing secret, `whsec_...`
 * @param {Record<string, string | string[] | undefined>} headers request headers (any case)
 * @param {string | Buffer} rawBody the body exactly as received
 * @param {{ toleranceSeconds?: number, now?: number }} [options] `now` in milliseconds
 * @returns {{ id: string, type: string, created_at: string, data: Record<string, unknown> }}
 */
export function verifyWebhook(secret, headers, rawBody, { toleranceSeconds = 300, now = Date.now() } = {}) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  /** @param {string} name */
  const header = (name) => {
    const v = lower[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const body = rawBody.toString();
  const timestamp = header('x-service-timestamp') ?? header('webhook-timestamp');
  if (!timestamp || !/^\d+$/.test(timestamp))
    throw new WebhookVerificationError('missing or malformed timestamp');
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds)
    throw new WebhookVerificationError('timestamp outside the tolerance');
  const service = header('x-service-signature');
  const standard = header('webhook-signature');
  const id = header('webhook-id');
  const valid =
    (service !== undefined && same(service, serviceSignature(secret, timestamp, body))) ||
    (standard !== undefined &&
      id !== undefined &&
      header('webhook-timestamp') === timestamp &&
      standard.split(' ').some((s) => same(s, standardSignature(secret, id, timestamp, body))));
  if (!valid) throw new WebhookVerificationError('signature does not match');
  return JSON.parse(body);
}
