import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { statementSummary } from '../../src/storage/traced-database.ts';
import { type SignedUp, signUp, type TestApp, uniquePhone } from '../helpers/app.ts';
import { OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.ts';
import { listeningApp } from '../helpers/relying-party.ts';

// Traces through a real OTLP/HTTP endpoint: one sign-in's spans (the request, its statements, the PIN's
// hash) in one trace that continues the caller's, their names and parent links; the trace id in the log
// lines and the X-Request-ID of the request; the trace passed on to the SMS gateway; and no phone number,
// PIN or token in any attribute of any span.

const SERVER = 2;
const CLIENT = 3;

describe('OpenTelemetry traces', () => {
  const receiver = new OtlpReceiver();
  let t: TestApp;
  let base: string;
  let user: SignedUp;
  before(async () => {
    const endpoint = await receiver.start();
    // The SDK reads the standard variables from the process, as it would in production.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
    ({ t, issuer: base } = await listeningApp({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }));
    user = await signUp(t);
  });
  after(async () => {
    await t?.close();
    await receiver.close();
  });

  /** A request over HTTP from a caller whose own span is `parent`. */
  const call = (path: string, body: unknown, parent: { traceId: string; spanId: string }) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        traceparent: `00-${parent.traceId}-${parent.spanId}-01`,
      },
      body: JSON.stringify(body),
    });
  const newParent = () => ({
    traceId: randomBytes(16).toString('hex'),
    spanId: randomBytes(8).toString('hex'),
  });
  const flushed = async (traceId: string) => {
    await t.c.tracing?.flush();
    return receiver.trace(traceId);
  };
  /** The spans under `span`, however deep. */
  const under = (spans: ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] => {
    const children = spans.filter((s) => s.parentSpanId === span.spanId);
    return children.flatMap((c) => [c, ...under(spans, c)]);
  };

  test("a sign-in's spans: the request continuing the caller's trace, its statements and the PIN's hash under it", async () => {
    const parent = newParent();
    const answer = await call('/auth/signin', { phone: user.phone, pin: user.pin }, parent);
    assert.equal(answer.status, 200);
    assert.equal(
      answer.headers.get('x-request-id'),
      parent.traceId,
      'the trace id answers as the request id',
    );
    const spans = await flushed(parent.traceId);
    const server = spans.find((s) => s.kind === SERVER);
    assert.ok(server, JSON.stringify(spans.map((s) => s.name)));
    assert.equal(server.name, 'POST /auth/signin');
    assert.equal(server.parentSpanId, parent.spanId);
    assert.equal(server.attributes['http.route'], '/auth/signin');
    assert.equal(server.attributes['http.response.status_code'], 200);
    assert.equal(server.attributes['callsign.outcome'], 'ok');
    assert.equal(server.resource['service.name'], 'callsign');
    const inside = under(spans, server);
    const statements = inside.filter((s) => s.kind === CLIENT && s.attributes['db.system.name']);
    assert.ok(
      statements.some(
        (s) => /^(SELECT|UPDATE) users$/.test(s.name) && s.attributes['db.collection.name'] === 'users',
      ),
    );
    assert.ok(
      inside.some((s) => s.name === 'argon2id verify'),
      'the PIN hash is a span of the request',
    );
    assert.equal(inside.length + 1, spans.length, 'every span of the trace hangs under the request');
    const logged = t.logs.filter((line) => line.includes(`"trace_id":"${parent.traceId}"`));
    assert.ok(logged.length >= 2, 'the request’s log lines name its trace');
  });

  test('a refusal names its error code, and the trace goes on to the SMS gateway', async () => {
    const parent = newParent();
    const refused = await call('/auth/signin', { phone: user.phone, pin: '000000' }, parent);
    assert.equal(refused.status, 401);
    const spans = await flushed(parent.traceId);
    const server = spans.find((s) => s.kind === SERVER);
    assert.equal(server?.attributes['callsign.outcome'], 'refused');
    assert.match(String(server?.attributes['error.type']), /^[A-Z_]+$/);

    const sent = newParent();
    const phone = uniquePhone();
    assert.equal((await call('/auth/otp/send', { phone, purpose: 'signup' }, sent)).status, 200);
    const sendSpans = await flushed(sent.traceId);
    const vendor = sendSpans.find((s) => s.kind === CLIENT && s.attributes['http.request.method'] === 'POST');
    assert.ok(vendor, JSON.stringify(sendSpans.map((s) => s.name)));
    assert.equal(vendor.attributes['server.address'], '127.0.0.1');
    assert.ok(t.sms.traceparents.some((tp) => tp.startsWith(`00-${sent.traceId}-${vendor.spanId}-`)));
  });

  test('no span carries a phone number, a PIN, a code or a token', async () => {
    await t.c.tracing?.flush();
    assert.ok(receiver.spans.length > 20);
    const secrets = [user.phone, user.phone.slice(1), user.pin, user.access_token, user.refresh_token];
    const leaks = receiver.spans.flatMap((span) =>
      [span.name, ...Object.values(span.attributes).map(String)]
        .filter(
          (value) =>
            secrets.some((secret) => value.includes(secret)) || /\+\d{8,15}|eyJ[\w-]{10,}/.test(value),
        )
        .map((value) => `${span.name}: ${value}`),
    );
    assert.deepEqual(leaks, []);
  });

  test("a statement's span is named by its verb and table, never its values", () => {
    assert.deepEqual(statementSummary('SELECT * FROM users WHERE id = $1'), {
      operation: 'SELECT',
      table: 'users',
    });
    assert.deepEqual(
      statementSummary('WITH held AS (SELECT 1 FROM users) UPDATE sessions SET revoked_at = $1'),
      { operation: 'UPDATE', table: 'sessions' },
    );
    assert.deepEqual(
      statementSummary(
        'INSERT INTO rate_counters (key) VALUES ($1) ON CONFLICT (key) DO UPDATE SET count = 1',
      ),
      { operation: 'INSERT', table: 'rate_counters' },
    );
    assert.deepEqual(statementSummary('BEGIN'), { operation: 'BEGIN', table: undefined });
  });
});
