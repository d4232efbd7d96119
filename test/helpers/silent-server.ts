import { createServer, type Socket } from 'node:net';

/**
 * A server on 127.0.0.1 that accepts connections and never says a word: a database or Redis that hangs, or a
 * proxy in front of a lost one. The kernel completes the handshake, so only a client's own timeout ends the
 * wait (P94, P95).
 */
export async function silentServer() {
  const held = new Set<Socket>();
  const server = createServer((s) => {
    held.add(s);
    s.on('close', () => held.delete(s));
    s.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const hangUp = () => {
    for (const s of held) s.destroy();
  };
  return {
    port: (server.address() as { port: number }).port,
    /** Ends the connections it holds; it still accepts new ones. */
    hangUp,
    /** Accepts no more, hangs up, and resolves once every connection has ended. */
    close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      hangUp();
      return closed;
    },
  };
}
