// Twilio's status callbacks, for messages and calls.
//
// Rules it enforces:
// - A callback counts only with an `X-Twilio-Signature` that is the base64 HMAC-SHA1, keyed with the account's
//   auth token, of the address Twilio called followed by each form field's name and value, sorted by name.
import { createHmac } from 'node:crypto';
import {
  type DeliveryStatus,
  fieldsOf,
  headerOf,
  type Receipt,
  type ReceiptReader,
  type ReceiptRequest,
  sameSignature,
} from './receipt.ts';

/** Twilio's message and call statuses as recorded; the others (e.g. `ringing`) change nothing. */
const STATUSES: Record<string, DeliveryStatus> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  undelivered: 'undelivered',
  failed: 'failed',
  // calls
  'in-progress': 'sent',
  completed: 'delivered',
  busy: 'undelivered',
  'no-answer': 'undelivered',
  canceled: 'failed',
};

export class TwilioReceipts implements ReceiptReader {
  constructor(private readonly authToken: string) {}

  read(req: ReceiptRequest): Receipt[] | undefined {
    const fields = fieldsOf(req);
    const signed =
      req.url +
      Object.keys(fields)
        .sort()
        .map((name) => name + fields[name])
        .join('');
    const expected = createHmac('sha1', this.authToken).update(signed).digest('base64');
    if (!sameSignature(expected, headerOf(req, 'x-twilio-signature'))) return undefined;
    const id = fields.MessageSid ?? fields.CallSid;
    const status = STATUSES[fields.MessageStatus ?? fields.CallStatus ?? ''];
    return id && status ? [{ providerMessageId: id, status }] : [];
  }
}
