import { createHmac, timingSafeEqual } from 'node:crypto';

// D32: every delivery is signed twice. X-Service-Signature as the spec shows it (hex HMAC-SHA256 over
// "timestamp.body", keyed with the secret string's UTF-8 bytes), and the Standard Webhooks headers
// (base64 HMAC-SHA256 over "id.timestamp.body", keyed with the base64-decoded part after "whsec_").

export type SignedHeaders = {
  'X-Service-Signature': string;
  'X-Service-Timestamp': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

const standardKey = (secret: string) => Buffer.from(secret.replace(/^whsec_/, ''), 'base64');

/** Headers for one attempt; during a secret roll every current secret signs (space-separated, as Standard Webhooks allows). */
export function signDelivery(secrets: string[], id: string, timestamp: number, body: string): SignedHeaders {
  const [primary] = secrets;
  return {
    'X-Service-Signature': `sha256=${createHmac('sha256', primary).update(`${timestamp}.${body}`).digest('hex')}`,
    'X-Service-Timestamp': String(timestamp),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets
      .map(
        (s) =>
          `v1,${createHmac('sha256', standardKey(s)).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
      )
      .join(' '),
  };
}

const same = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export class WebhookVerificationError extends Error {}

/**
 * For receivers (issue 6 makes it the package's export): checks a delivery's X-Service-Signature, or its Standard
 * Webhooks signature when that is what came, and that the timestamp is within `toleranceSeconds` (300 by
 * default, as the spec advises) of `now`. Answers the parsed envelope; throws WebhookVerificationError.
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  rawBody: string | Buffer,
  { toleranceSeconds = 300, now = Date.now() }: { toleranceSeconds?: number; now?: number } = {},
): { id: string; type: string; created_at: string; data: Record<string, unknown> } {
  const header = (name: string) => {
    const v = headers[name] ?? headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  const body = rawBody.toString();
  const timestamp = header('X-Service-Timestamp') ?? header('webhook-timestamp');
  if (!timestamp || !/^\d+$/.test(timestamp))
    throw new WebhookVerificationError('missing or malformed timestamp');
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds)
    throw new WebhookVerificationError('timestamp outside the tolerance');
  const service = header('X-Service-Signature');
  const standard = header('webhook-signature');
  const id = header('webhook-id');
  let valid = false;
  if (service) {
    valid = same(
      service,
      `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`,
    );
  } else if (standard && id) {
    const expected = `v1,${createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
    valid = standard.split(' ').some((s) => same(s, expected));
  }
  if (!valid) throw new WebhookVerificationError('signature does not match');
  return JSON.parse(body);
}
