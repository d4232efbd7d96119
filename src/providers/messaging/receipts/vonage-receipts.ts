// Vonage's SMS delivery receipts, signed.
//
// Rules it enforces:
// - A receipt counts only with a `sig` made with the account's signature secret as Vonage signs: every other
//   field sorted by name, each `&name=value` with `&` and `=` in values made `_`, then the MD5 of that and the
//   secret (`md5hash`), or its HMAC keyed with the secret (`md5`, `sha1`, `sha256`, `sha512`), in hex.
import { createHash, createHmac } from 'node:crypto';
import { vendorPrice } from '../provider.ts';
import {
  type DeliveryStatus,
  fieldsOf,
  type Receipt,
  type ReceiptReader,
  type ReceiptRequest,
  reportedAt,
  sameSignature,
} from './receipt.ts';

export type VonageSignatureMethod = 'md5hash' | 'md5' | 'sha1' | 'sha256' | 'sha512';

const STATUSES: Record<string, DeliveryStatus> = {
  accepted: 'sent',
  buffered: 'sent',
  delivered: 'delivered',
  expired: 'undelivered',
  failed: 'failed',
  rejected: 'failed',
};

/** Vonage's signature of these fields. */
export function vonageSignature(
  fields: Record<string, string>,
  secret: string,
  method: VonageSignatureMethod,
): string {
  const signed = Object.keys(fields)
    .filter((name) => name !== 'sig')
    .sort()
    .map((name) => `&${name}=${fields[name].replace(/[&=]/g, '_')}`)
    .join('');
  return method === 'md5hash'
    ? createHash('md5')
        .update(signed + secret)
        .digest('hex')
    : createHmac(method, secret).update(signed).digest('hex');
}

export class VonageReceipts implements ReceiptReader {
  constructor(
    private readonly secret: string,
    private readonly method: VonageSignatureMethod,
  ) {}

  read(req: ReceiptRequest): Receipt[] | undefined {
    const fields = { ...req.query, ...fieldsOf(req) };
    const expected = vonageSignature(fields, this.secret, this.method);
    if (!sameSignature(expected.toLowerCase(), fields.sig?.toLowerCase())) return undefined;
    const status = STATUSES[fields.status ?? ''];
    if (!fields.messageId || !status) return [];
    const receipt = { providerMessageId: fields.messageId, status, ...reportedAt(fields.timestamp) };
    return [{ ...receipt, ...vendorPrice(fields.price) }];
  }
}
