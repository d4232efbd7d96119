import { createServer } from 'node:net';

/**
 * A port nothing listens on right now, for a server that must know its own address before it starts.
 * It is drawn below the kernel's ephemeral range (32768 and up), so an outgoing connection made between
 * this check and the server's own listen (a database pool, a browser) cannot take it.
 */
const lowest = 20000;
const span = 12000;

const tryListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

export async function freePort(): Promise<number> {
  for (;;) {
    const port = lowest + Math.floor(Math.random() * span);
    if (await tryListen(port)) return port;
  }
}
