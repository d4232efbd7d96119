import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { test } from 'node:test';
import type { ReceiptRequest } from '../../src/providers/messaging/receipts/receipt.ts';
import { TwilioReceipts } from '../../src/providers/messaging/receipts/twilio-receipts.ts';
import { VonageReceipts } from '../../src/providers/messaging/receipts/vonage-receipts.ts';
import { twilioSignature } from '../helpers/vendors.ts';

// The receipt readers against callbacks signed as each vendor documents it, computed here on their own:
// Vonage's default `md5hash` and an HMAC method, in a form, a JSON body or the query; Twilio's call statuses.

const SECRET = 'vonage-signature-secret';

/** Vonage's signed string: every field but `sig`, sorted, as `&name=value` with `&` and `=` in values as `_`. */
const vonageData = (fields: Record<string, string>) =>
  Object.keys(fields)
    .sort()
    .map((name) => `&${name}=${fields[name].replace(/[&=]/g, '_')}`)
    .join('');

const DLR = { messageId: '0A0000000123ABCD1', status: 'delivered', msisdn: '447700900000', 'err-code': '0' };

const formRequest = (fields: Record<string, string>): ReceiptRequest => ({
  url: 'https://id.example/hooks/messages/vg',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  rawBody: new URLSearchParams(fields).toString(),
  query: {},
});

test('Vonage md5hash: the MD5 of the sorted fields followed by the secret; anything else is refused', () => {
  const reader = new VonageReceipts(SECRET, 'md5hash');
  const sig = createHash('md5')
    .update(`${vonageData(DLR)}${SECRET}`)
    .digest('hex');
  assert.deepEqual(reader.read(formRequest({ ...DLR, sig })), [
    { providerMessageId: DLR.messageId, status: 'delivered' },
  ]);
  assert.deepEqual(reader.read(formRequest({ ...DLR, sig: sig.toUpperCase() })), [
    { providerMessageId: DLR.messageId, status: 'delivered' },
  ]);
  assert.equal(reader.read(formRequest({ ...DLR, status: 'failed', sig })), undefined, 'a changed field');
  assert.equal(reader.read(formRequest({ ...DLR })), undefined, 'unsigned');
  const hmac = createHmac('md5', SECRET).update(vonageData(DLR)).digest('hex');
  assert.equal(reader.read(formRequest({ ...DLR, sig: hmac })), undefined, 'another method');
});

test('Vonage HMAC methods, in a JSON body or in the query', () => {
  const reader = new VonageReceipts(SECRET, 'sha512');
  const fields = { ...DLR, status: 'expired', text: 'a=b&c' };
  const sig = createHmac('sha512', SECRET).update(vonageData(fields)).digest('hex');
  const json: ReceiptRequest = {
    url: 'https://id.example/hooks/messages/vg',
    headers: { 'content-type': 'application/json' },
    rawBody: JSON.stringify({ ...fields, sig }),
    query: {},
  };
  assert.deepEqual(reader.read(json), [{ providerMessageId: DLR.messageId, status: 'undelivered' }]);
  const query: ReceiptRequest = { url: json.url, headers: {}, rawBody: '', query: { ...fields, sig } };
  assert.deepEqual(reader.read(query), [{ providerMessageId: DLR.messageId, status: 'undelivered' }]);
});

test('Twilio call statuses: a completed call delivered the code, a busy or unanswered one did not', () => {
  const token = 'twilio-auth-token';
  const reader = new TwilioReceipts(token);
  const url = 'https://id.example/hooks/messages/tw';
  const call = (CallStatus: string) => {
    const fields = { CallSid: 'CA123', CallStatus, AccountSid: 'AC1' };
    return reader.read({
      url,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(token, url, fields),
      },
      rawBody: new URLSearchParams(fields).toString(),
      query: {},
    });
  };
  assert.deepEqual(call('completed'), [{ providerMessageId: 'CA123', status: 'delivered' }]);
  assert.deepEqual(call('no-answer'), [{ providerMessageId: 'CA123', status: 'undelivered' }]);
  assert.deepEqual(call('busy'), [{ providerMessageId: 'CA123', status: 'undelivered' }]);
  assert.deepEqual(call('in-progress'), [{ providerMessageId: 'CA123', status: 'sent' }]);
  assert.deepEqual(call('ringing'), [], 'a state that changes nothing');
});
