import cluster from 'node:cluster';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { signRs256Jwt } from '../src/domain/sessions/access-tokens.ts';

// The floor under the token scenarios: what the stack alone (Fastify, a JSON body, one RS256 signature made
// as the service makes it (P82), a JSON answer) costs per request on this machine, with no storage, rate
// limit or rule. As many processes as the service gets; the primary reports the port over IPC.
const processes = Number(process.argv[2] ?? 1);

if (cluster.isPrimary) {
  const workers = Array.from({ length: processes }, () => cluster.fork());
  const [port] = await Promise.all(
    workers.map((w) => new Promise<number>((resolve) => w.once('message', (m) => resolve(m as number)))),
  );
  process.send?.({ port });
  process.on('SIGTERM', () => {
    for (const w of workers) w.kill();
    process.exit(0);
  });
} else {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const app = Fastify();
  app.post('/token', async (request) => {
    const { refresh_token: token } = request.body as { refresh_token: string };
    const iat = Math.floor(Date.now() / 1000);
    const access_token = signRs256Jwt(
      { typ: 'JWT', kid: 'floor' },
      {
        scope: 'openid profile phone email kyc',
        sid: randomUUID(),
        jti: randomUUID(),
        iss: 'http://localhost:3000',
        sub: randomUUID(),
        aud: 'callsign',
        iat,
        exp: iat + 900,
      },
      privateKey,
    );
    return { success: true, data: { access_token, refresh_token: token, expires_in: 900 } };
  });
  // In a cluster, every worker's listen(0) gets the same port.
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.send?.((app.server.address() as AddressInfo).port);
}
