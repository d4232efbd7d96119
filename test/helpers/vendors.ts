// The messaging vendors' APIs as they document them: what each checks of a request, and how it answers,
// success and error. Each is served by a VendorServer on 127.0.0.1.
import { createHmac } from 'node:crypto';
import type { VendorAnswer, VendorBehaviour, VendorRequest } from './vendor-server.ts';

let ids = 0;
const nextId = (prefix: string) => `${prefix}${(++ids).toString(16).padStart(32, '0')}`;
const E164 = /^\+[1-9]\d{6,14}$/;
const DIGITS = /^[1-9]\d{6,14}$/;

/** Twilio's REST API: HTTP Basic with the account SID and auth token; Messages and Calls, form-encoded. */
export function twilio(accountSid: string, authToken: string): VendorBehaviour {
  const auth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const error = (status: number, code: number, message: string): VendorAnswer => ({
    status,
    body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
  });
  return (req: VendorRequest) => {
    if (req.headers.authorization !== auth) return error(401, 20003, 'Authenticate');
    if (req.headers['content-type'] !== 'application/x-www-form-urlencoded')
      return error(400, 20001, 'Bad content type');
    const base = `/2010-04-01/Accounts/${accountSid}`;
    const { To, From, MessagingServiceSid, Body, ContentSid, ContentVariables, Twiml } = req.form;
    if (req.method === 'POST' && req.path === `${base}/Messages.json`) {
      const whatsapp = To?.startsWith('whatsapp:');
      if (!E164.test(whatsapp ? To.slice(9) : (To ?? '')))
        return error(400, 21211, `The 'To' number ${To} is not a valid phone number.`);
      if (!From && !MessagingServiceSid)
        return error(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required");
      if (whatsapp && !From?.startsWith('whatsapp:'))
        return error(400, 63007, 'Twilio could not find a Channel with the specified From address');
      if (!Body && !ContentSid)
        return error(400, 21619, 'A text message body or media urls must be specified.');
      if (ContentSid && ContentVariables) JSON.parse(ContentVariables);
      return { status: 201, body: { sid: nextId('SM'), status: 'queued', to: To } };
    }
    if (req.method === 'POST' && req.path === `${base}/Calls.json`) {
      if (!E164.test(To ?? ''))
        return error(400, 21211, `The 'To' number ${To} is not a valid phone number.`);
      if (!From) return error(400, 21213, "No 'From' number is specified");
      if (!Twiml?.includes('<Response>')) return error(400, 21205, 'Url or Twiml is required');
      return { status: 201, body: { sid: nextId('CA'), status: 'queued', to: To } };
    }
    return error(404, 20404, 'The requested resource was not found');
  };
}

/** Meta's WhatsApp Cloud API: Bearer token; `POST /{phone_number_id}/messages` with a JSON message. */
export function whatsappCloud(phoneNumberId: string, accessToken: string): VendorBehaviour {
  const error = (status: number, code: number, message: string): VendorAnswer => ({
    status,
    body: { error: { message, type: 'OAuthException', code, fbtrace_id: 'AbCdEf' } },
  });
  return (req) => {
    if (req.headers.authorization !== `Bearer ${accessToken}`)
      return error(401, 190, 'Invalid OAuth access token.');
    if (req.method !== 'POST' || !req.path.endsWith(`/${phoneNumberId}/messages`))
      return error(400, 100, 'Unsupported post request.');
    const m = req.json as
      | {
          messaging_product?: string;
          to?: string;
          type?: string;
          template?: { name?: string; language?: { code?: string } };
        }
      | undefined;
    if (m?.messaging_product !== 'whatsapp')
      return error(400, 100, 'The parameter messaging_product is required.');
    if (!DIGITS.test(m.to ?? '')) return error(400, 131030, 'Recipient phone number not in allowed list');
    if (m.type !== 'template' || !m.template?.name || !m.template?.language?.code)
      return error(400, 132000, 'Number of parameters does not match the expected number of params');
    return {
      status: 200,
      body: {
        messaging_product: 'whatsapp',
        contacts: [{ input: m.to, wa_id: m.to }],
        messages: [{ id: nextId('wamid.') }],
      },
    };
  };
}

/** Vonage's SMS API: key and secret in the form; answers 200 with each message's status ("0" is sent). */
export function vonage(apiKey: string, apiSecret: string): VendorBehaviour {
  const refused = (status: string, text: string): VendorAnswer => ({
    status: 200,
    body: { 'message-count': '1', messages: [{ status, 'error-text': text }] },
  });
  return (req) => {
    if (req.method !== 'POST' || req.path !== '/sms/json') return { status: 404 };
    const { api_key, api_secret, from, to, text } = req.form;
    if (api_key !== apiKey || api_secret !== apiSecret) return refused('4', 'Bad Credentials');
    if (!from || !text) return refused('2', 'Missing from or text');
    if (!DIGITS.test(to ?? '')) return refused('3', 'Invalid to');
    return {
      status: 200,
      body: {
        'message-count': '1',
        messages: [
          { to, 'message-id': nextId(''), status: '0', 'remaining-balance': '3.14', 'message-price': '0.03' },
        ],
      },
    };
  };
}

/** MSG91's SendOTP (v5): `authkey` header; template, number and code in the query. */
export function msg91(authKey: string, templateId: string): VendorBehaviour {
  return (req) => {
    if (req.method !== 'POST' || req.path !== '/api/v5/otp') return { status: 404 };
    if (req.headers.authkey !== authKey)
      return { status: 401, body: { type: 'error', message: 'AuthenticationFailure' } };
    if (req.query.get('template_id') !== templateId)
      return { status: 200, body: { type: 'error', message: 'Invalid template id' } };
    if (!DIGITS.test(req.query.get('mobile') ?? '') || !/^\d{4,9}$/.test(req.query.get('otp') ?? ''))
      return { status: 200, body: { type: 'error', message: 'Mobile no. not found' } };
    return { status: 200, body: { type: 'success', request_id: nextId('') } };
  };
}

/** Termii's Messaging API: JSON with the API key; `POST /api/sms/send`. */
export function termii(apiKey: string): VendorBehaviour {
  return (req) => {
    if (req.method !== 'POST' || req.path !== '/api/sms/send')
      return { status: 404, body: { message: 'Not found' } };
    const m = req.json as Record<string, string> | undefined;
    if (m?.api_key !== apiKey) return { status: 401, body: { message: 'Invalid API key' } };
    if (
      !DIGITS.test(m.to ?? '') ||
      !m.from ||
      !m.sms ||
      m.type !== 'plain' ||
      !['dnd', 'generic', 'whatsapp'].includes(m.channel)
    )
      return { status: 400, body: { message: 'Bad request: to, from, sms, type and channel are required' } };
    return {
      status: 200,
      body: {
        code: 'ok',
        message_id: nextId(''),
        message: 'Successfully Sent',
        balance: 9,
        user: 'Callsign',
      },
    };
  };
}

/** The generic gateway (D37): `{to, message, channel, code}` as JSON; any 2xx is sent. */
export const gateway: VendorBehaviour = (req) => {
  const m = req.json as Record<string, string> | undefined;
  return E164.test(m?.to ?? '') && m?.message ? { status: 202 } : { status: 400 };
};

/** How Twilio signs a callback: base64 HMAC-SHA1 of the URL and each field's name and value, sorted by name. */
export function twilioSignature(authToken: string, url: string, fields: Record<string, string>): string {
  const data = Object.keys(fields)
    .sort()
    .reduce((acc, name) => acc + name + fields[name], url);
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** How Meta signs a webhook: `sha256=` and the hex HMAC-SHA256 of the body as sent. */
export const metaSignature = (appSecret: string, body: string) =>
  `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;

/** How Vonage signs a delivery receipt with an HMAC method: sorted `&name=value`, `&`/`=` in values as `_`. */
export function vonageSigned(secret: string, fields: Record<string, string>): Record<string, string> {
  let data = '';
  for (const name of Object.keys(fields).sort())
    data += `&${name}=${fields[name].replaceAll('&', '_').replaceAll('=', '_')}`;
  return { ...fields, sig: createHmac('sha256', secret).update(data).digest('hex').toUpperCase() };
}
