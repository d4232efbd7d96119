import net from 'node:net';

/** A raw keep-alive connection: what it was sent back, and whether the server has closed it. */
export function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  let closed = false;
  const ended = new Promise<void>((resolve) =>
    socket.on('close', () => {
      closed = true;
      resolve();
    }),
  );
  socket.on('data', (d) => {
    received += d;
  });
  socket.on('error', () => {});
  /** Waits until the answer so far holds `text` (or the socket closes); gives up after `ms`. */
  const until = (text: string, ms = 5000) =>
    new Promise<string>((resolve) => {
      const started = Date.now();
      const look = () => {
        if (received.includes(text) || closed || Date.now() - started > ms) return resolve(received);
        setTimeout(look, 10);
      };
      look();
    });
  return {
    socket,
    write: (data: string | Buffer) => socket.write(data),
    received: () => received,
    clear: () => {
      received = '';
    },
    closed: () => closed,
    ended,
    until,
  };
}

/** Whether `promise` settles within `ms` (a bound on a wait for I/O, so a failing test fails, not hangs). */
export const within = (promise: Promise<unknown>, ms: number) =>
  Promise.race([
    promise.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
  ]);
