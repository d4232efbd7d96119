import type { VendorAnswer, VendorBehaviour, VendorRequest } from './vendor-server.ts';

// SIM check vendors as they document their APIs, for VendorServer: each request is checked (path, method,
// credentials, body) and answered from the test's table of numbers. A number the table does not name is
// answered as the vendor answers an unknown subscriber.

const E164 = /^\+[1-9]\d{6,14}$/;

/** What a test's number answers: a swap (with its date), a recycling, or the vendor's error. */
export interface NumberState {
  swapped?: boolean;
  lastSwapAt?: string;
  recycled?: boolean;
  /** the vendor's error status for this number instead of an answer */
  error?: number;
}

export type NumberTable = Map<string, NumberState>;

const camaraError = (status: number, code: string, message: string): VendorAnswer => ({
  status,
  body: { status, code, message },
});

/** The test's CAMARA credentials, and a service's settings for the fake at `url` (with Number Recycling). */
export const CAMARA_TEST = { clientId: 'callsign-test', clientSecret: 'camara-secret-0123456789' };
export const camaraEnv = (url: string) => ({
  SIM_CHECK_PROVIDER: 'camara',
  CAMARA_API_ROOT: url,
  CAMARA_TOKEN_URL: `${url}/token`,
  CAMARA_CLIENT_ID: CAMARA_TEST.clientId,
  CAMARA_CLIENT_SECRET: CAMARA_TEST.clientSecret,
  NUMBER_RECYCLING_CHECK: 'true',
});

const CAMARA_SCOPES = ['sim-swap:check', 'sim-swap:retrieve-date', 'number-recycling:check'];

/**
 * GSMA CAMARA: `POST /token` (client credentials, `client_secret_basic`, the APIs' scopes), then SIM Swap v2 and
 * Number Recycling v0.2 with the token as a Bearer; errors in CAMARA's `{status, code, message}`.
 */
export function camara(clientId: string, clientSecret: string, numbers: NumberTable): VendorBehaviour {
  const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
  const tokens = new Set<string>();
  return (req: VendorRequest) => {
    if (req.method === 'POST' && req.path === '/token') {
      if (req.headers.authorization !== basic) return { status: 401, body: { error: 'invalid_client' } };
      if (
        req.headers['content-type'] !== 'application/x-www-form-urlencoded' ||
        req.form.grant_type !== 'client_credentials'
      )
        return { status: 400, body: { error: 'unsupported_grant_type' } };
      const asked = (req.form.scope ?? '').split(' ');
      if (!CAMARA_SCOPES.every((s) => asked.includes(s)))
        return { status: 400, body: { error: 'invalid_scope' } };
      const token = `camara-${tokens.size + 1}`;
      tokens.add(token);
      return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: 3600 } };
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (!tokens.has(bearer)) return camaraError(401, 'UNAUTHENTICATED', 'Request not authenticated');
    if (req.method !== 'POST' || req.headers['content-type'] !== 'application/json')
      return camaraError(400, 'INVALID_ARGUMENT', 'Client specified an invalid argument');
    const body = (req.json ?? {}) as Record<string, unknown>;
    const phone = String(body.phoneNumber ?? '');
    if (!E164.test(phone)) return camaraError(400, 'INVALID_ARGUMENT', 'phoneNumber must be E.164');
    const state = numbers.get(phone);
    if (!state) return camaraError(404, 'IDENTIFIER_NOT_FOUND', 'Device identifier not found');
    if (state.error)
      return camaraError(state.error, state.error === 422 ? 'SERVICE_NOT_APPLICABLE' : 'INTERNAL', 'no');
    if (req.path === '/sim-swap/v2/check') {
      const maxAge = body.maxAge;
      if (typeof maxAge !== 'number' || !Number.isInteger(maxAge) || maxAge < 1 || maxAge > 2400)
        return camaraError(400, 'OUT_OF_RANGE', 'maxAge must be 1-2400');
      return { status: 200, body: { swapped: state.swapped === true } };
    }
    if (req.path === '/sim-swap/v2/retrieve-date')
      return { status: 200, body: { latestSimChange: state.lastSwapAt ?? null, monitoredPeriod: 120 } };
    if (req.path === '/number-recycling/v0.2/check') {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(String(body.specifiedDate ?? '')))
        return camaraError(400, 'INVALID_ARGUMENT', 'specifiedDate must be YYYY-MM-DD');
      return { status: 200, body: { phoneNumberRecycled: state.recycled === true } };
    }
    return camaraError(404, 'NOT_FOUND', 'The specified resource is not found');
  };
}

/**
 * Twilio Lookup v2: `GET /v2/PhoneNumbers/{number}?Fields=sim_swap`, HTTP Basic with the account SID and auth
 * token. The carrier here gives no swap date, so `swapped_in_period` is over a 48-hour or a 30-day period.
 */
export function twilioLookup(accountSid: string, authToken: string, numbers: NumberTable): VendorBehaviour {
  const basic = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  return (req: VendorRequest) => {
    if (req.headers.authorization !== basic)
      return { status: 401, body: { code: 20003, message: 'Authenticate', status: 401 } };
    const m = /^\/v2\/PhoneNumbers\/([^/]+)$/.exec(req.path);
    const phone = m ? decodeURIComponent(m[1] as string) : '';
    if (req.method !== 'GET' || !m || req.query.get('Fields') !== 'sim_swap')
      return { status: 404, body: { code: 20404, message: 'Not found', status: 404 } };
    const state = numbers.get(phone);
    const simSwap = !state
      ? null
      : state.error
        ? { last_sim_swap: null, carrier_name: null, error_code: 60620 }
        : {
            last_sim_swap: {
              last_sim_swap_date: state.lastSwapAt ?? null,
              swapped_period: state.swapped ? 'PT48H' : 'P30D',
              swapped_in_period: state.swapped === true,
            },
            carrier_name: 'Test Mobile',
            mobile_country_code: '404',
            mobile_network_code: '10',
            error_code: null,
          };
    return { status: 200, body: { phone_number: phone, valid: true, sim_swap: simSwap } };
  };
}

/** An operator's own service: `POST /` with `{phone, max_age_hours, specified_date?}`. */
export function ownService(numbers: NumberTable): VendorBehaviour {
  return (req: VendorRequest) => {
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (req.method !== 'POST' || typeof body.phone !== 'string' || typeof body.max_age_hours !== 'number')
      return { status: 400, body: { error: 'bad request' } };
    const state = numbers.get(body.phone);
    if (state?.error) return { status: state.error, body: { error: 'unavailable' } };
    return {
      status: 200,
      body: {
        swapped: state?.swapped ?? null,
        last_swap_at: state?.lastSwapAt ?? null,
        recycled: body.specified_date ? (state?.recycled ?? null) : null,
      },
    };
  };
}
