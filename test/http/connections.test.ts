import assert from 'node:assert/strict';
import type net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { closeGracefully } from '../../src/http/plugins/connections.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { ADMIN_TOKEN, accessTokenFor, registerClient } from '../helpers/oauth.ts';
import { connect, within } from '../helpers/raw-connection.ts';

const multipart = (field: string, size: number) =>
  Buffer.concat([
    Buffer.from(
      `--x\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    Buffer.alloc(size, 7),
    Buffer.from('\r\n--x--\r\n'),
  ]);

describe('an answered request never leaves its connection stuck', () => {
  let t: TestApp;
  let port: number;
  let token: string;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
    const user = await signUp(t);
    const client = await registerClient(t, {
      token_endpoint_auth_method: 'none',
      scope: 'openid profile profile:write',
    });
    token = await accessTokenFor(t, client.client_id, user, 'openid profile profile:write');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  after(() => t.close());

  test('an upload refused before its body was read (wrong field, 300 KB) closes its connection', async () => {
    const conn = connect(port);
    const body = multipart('avatar', 300_000);
    conn.write(
      `POST /api/v1/users/me/avatar HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    conn.write(body);
    const answer = await conn.until('invalid_request');
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    await within(conn.ended, 5000);
    assert.ok(conn.closed(), 'the server closes it: nothing is left waiting on the unread rest');
  });

  test('a request read whole keeps its connection alive', async () => {
    const conn = connect(port);
    conn.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.match(await conn.until('"status"'), /\r\nconnection: keep-alive\r\n/i);
    conn.clear();
    conn.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.match(await conn.until('"status"'), /^HTTP\/1\.1 200/);
    conn.socket.destroy();
  });
});

describe('stopping never waits on a client, and answers late requests in their surface format', () => {
  test('idle and stuck kept-alive sockets are closed within the grace period; a late request gets the envelope', async () => {
    const t = await createTestApp();
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (t.app.server.address() as net.AddressInfo).port;
      const idle = connect(port);
      idle.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
      await idle.until('"status"');
      // Stuck mid-body: it holds the stop for the whole grace period.
      const stuck = connect(port);
      stuck.write(
        'POST /auth/otp/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ph',
      );
      // Busy when the stop begins, then sends another request on the same connection.
      const late = connect(port);
      late.write(
        'POST /auth/otp/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n',
      );
      // The same on the OAuth surface and on a hosted page: each answers in its own format.
      const lateOauth = connect(port);
      lateOauth.write(
        'POST /oauth/revoke HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n',
      );
      const latePage = connect(port);
      latePage.write(
        'POST /authorize/logout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n',
      );
      // Let the server read both requests' heads (loopback I/O, not time the test is about).
      await new Promise((resolve) => setTimeout(resolve, 200));

      const stopped = closeGracefully(t.app, 1500);
      await idle.ended;
      // Its body, and a second request pipelined behind it: the second arrives while the server stops.
      late.write('{}GET /users/me HTTP/1.1\r\nHost: x\r\n\r\n');
      const both = await late.until('SERVICE_UNAVAILABLE');
      const answer = both.slice(both.indexOf('HTTP/1.1', 10));
      assert.match(answer, /^HTTP\/1\.1 503/);
      assert.match(answer, /\r\nconnection: close\r\n/i);
      assert.match(answer, /\r\nretry-after: \d+\r\n/i);
      assert.match(answer, /\{"success":false,"error":\{"code":"SERVICE_UNAVAILABLE"/);
      lateOauth.write('{}GET /oauth/userinfo HTTP/1.1\r\nHost: x\r\n\r\n');
      const oauth = await lateOauth.until('temporarily_unavailable');
      assert.match(
        oauth.slice(oauth.indexOf('HTTP/1.1', 10)),
        /^HTTP\/1\.1 503[\s\S]*"error":"temporarily_unavailable"/,
      );
      latePage.write('{}GET /authorize/logout HTTP/1.1\r\nHost: x\r\n\r\n');
      const page = await latePage.until('restarting');
      assert.match(page.slice(page.indexOf('HTTP/1.1', 10)), /^HTTP\/1\.1 503[\s\S]*text\/html/);

      const cut = await within(Promise.all([stopped, stuck.ended]), 10_000);
      assert.ok(
        cut && stuck.closed(),
        'the stop ended, the stuck request cut at the end of the grace period',
      );
    } finally {
      await t.c.close();
      await t.close().catch(() => {});
    }
  });
});
