import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet } from 'jose';
import { createTestApp, type SignedUp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN } from '../helpers/oauth.ts';
import {
  ALL_EVENTS,
  confidentialClient,
  readSet,
  type SignalsClient,
  sessionWith,
  ssfCall,
} from '../helpers/signals.ts';
import { CAMARA_TEST, camara, camaraEnv, type NumberTable } from '../helpers/sim-vendors.ts';
import { VendorServer } from '../helpers/vendor-server.ts';

// Callsign's phone-risk event made by its real cause: a CAMARA SIM Swap check (a local server that checks the
// requests as CAMARA documents them) answering that the SIM was swapped, or Number Recycling that the number
// was recycled, at a code step; the SET verified with jose as the receiver would.

const BASE = 'http://callsign.test';
const PHONE_RISK = 'urn:callsign:secevent:event-type:phone-risk';
const DAY = 86_400;

describe('a SIM swap or a recycled number found by the network reaches the apps', () => {
  let t: TestApp;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  const numbers: NumberTable = new Map();
  const vendor = new VendorServer(camara(CAMARA_TEST.clientId, CAMARA_TEST.clientSecret, numbers));
  before(async () => {
    const url = await vendor.start();
    t = await createTestApp({
      env: {
        ADMIN_TOKEN,
        ...camaraEnv(url),
        SIGNIN_METHODS: 'pin,passkey,code',
      },
    });
    jwks = createLocalJWKSet((await t.request('GET', '/.well-known/jwks.json')).body);
  });
  after(async () => {
    await t.close();
    await vendor.close();
  });

  async function poll(client: SignalsClient, stream: string) {
    const res = await ssfCall(t, client, 'POST', `/ssf/poll/${stream}`, { maxEvents: 100 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const events = [];
    for (const set of Object.values<string>(res.body.sets)) events.push(await readSet(t, jwks, set, client));
    await ssfCall(t, client, 'POST', `/ssf/poll/${stream}`, {
      maxEvents: 0,
      ack: Object.keys(res.body.sets),
    });
    return events;
  }
  async function codeStep(s: SignedUp, purpose: 'signin' | 'pin_reset') {
    const sent = await t.request('POST', '/auth/otp/send', { body: { phone: s.phone, purpose } });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const code = t.sms.lastCode(s.phone);
    return t.request('POST', '/auth/otp/verify', { body: { phone: s.phone, purpose, code } });
  }
  async function streamKnowing(u: SignedUp) {
    const a = await confidentialClient(t);
    const made = await ssfCall(t, a, 'POST', '/ssf/streams', {
      events_requested: ALL_EVENTS,
      delivery: { method: 'urn:ietf:rfc:8936' },
    });
    await sessionWith(t, a, u);
    return { a, stream: made.body.stream_id as string };
  }

  test('CAMARA answers swapped at a PIN reset: the app hears sim_swap, with when', async () => {
    const u = await signUp(t);
    const { a, stream } = await streamKnowing(u);
    const lastSwapAt = new Date(t.clock.now().getTime() - 3600_000).toISOString();
    numbers.set(u.phone, { swapped: true, lastSwapAt });
    const refused = await codeStep(u, 'pin_reset');
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    const events = await poll(a, stream);
    assert.deepEqual(events, [
      {
        type: PHONE_RISK,
        members: {
          reason: 'sim_swap',
          step: 'pin_reset',
          event_timestamp: Math.floor(t.clock.now().getTime() / 1000),
          last_swap_at: lastSwapAt,
        },
        subject: { format: 'iss_sub', iss: BASE, sub: u.user.id },
      },
    ]);
  });

  test('CAMARA answers recycled at a sign-in long after the number was proved: the app hears number_recycled', async () => {
    const u = await signUp(t);
    const { a, stream } = await streamKnowing(u);
    numbers.set(u.phone, { swapped: false, recycled: true });
    t.clock.advance(91 * DAY);
    const refused = await codeStep(u, 'signin');
    assert.equal(refused.status, 403, JSON.stringify(refused.body));
    const [risk] = await poll(a, stream);
    assert.equal(risk.type, PHONE_RISK);
    assert.equal(risk.members.reason, 'number_recycled');
    assert.equal(risk.members.step, 'signin');
  });
});
