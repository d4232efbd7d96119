// Meta's WhatsApp Cloud API webhooks: message statuses, and the check of the callback address.
//
// Rules it enforces:
// - A callback counts only with an `X-Hub-Signature-256` of `sha256=` and the hex HMAC-SHA256, keyed with the
//   app secret, of the body exactly as sent.
// - The verification GET is answered with its challenge only when its `hub.verify_token` is the configured one.
import { createHmac } from 'node:crypto';
import {
  type DeliveryStatus,
  headerOf,
  type Receipt,
  type ReceiptReader,
  type ReceiptRequest,
  reportedAt,
  sameSignature,
} from './receipt.ts';

const STATUSES: Record<string, DeliveryStatus> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'failed',
};

interface Webhook {
  entry?: Array<{
    changes?: Array<{ value?: { statuses?: Array<{ id?: string; status?: string; timestamp?: string }> } }>;
  }>;
}

export class WhatsAppCloudReceipts implements ReceiptReader {
  constructor(
    private readonly appSecret: string,
    private readonly verifyToken: string | undefined,
  ) {}

  read(req: ReceiptRequest): Receipt[] | undefined {
    const expected = `sha256=${createHmac('sha256', this.appSecret).update(req.rawBody).digest('hex')}`;
    if (!sameSignature(expected, headerOf(req, 'x-hub-signature-256'))) return undefined;
    let body: Webhook;
    try {
      body = JSON.parse(req.rawBody) as Webhook;
    } catch {
      return [];
    }
    const receipts: Receipt[] = [];
    for (const entry of body.entry ?? [])
      for (const change of entry.changes ?? [])
        for (const s of change.value?.statuses ?? []) {
          const status = STATUSES[s.status ?? ''];
          if (s.id && status) receipts.push({ providerMessageId: s.id, status, ...reportedAt(s.timestamp) });
        }
    return receipts;
  }

  verifySubscription(query: Record<string, string>): string | undefined {
    const { 'hub.mode': mode, 'hub.verify_token': token, 'hub.challenge': challenge } = query;
    if (mode !== 'subscribe' || !this.verifyToken || !challenge) return undefined;
    return sameSignature(this.verifyToken, token) ? challenge : undefined;
  }
}
