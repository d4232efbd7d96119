import pg from 'pg';
import { PrimaryFinder, urlsOfHosts } from './database-hosts.ts';

// LISTEN for the webhook outbox, on a connection of its own outside the pool (a transaction pooler cannot carry
// it: DATABASE_LISTEN_URL names a direct one):
// - The connection is opened again whenever it is lost, a second after, and `onNotify` is called once it is
//   back, for what may have been missed meanwhile.
// - With several hosts in the address, it is the primary's: NOTIFY is sent where the outbox is written, and a
//   standby never delivers it. A failover that cuts the connection starts a search for the new primary.
// - With no address (a transaction pooler without DATABASE_LISTEN_URL) there is no LISTEN: the workers poll.

/** After a lost LISTEN connection, or a failed attempt to open one, the next try waits this long. */
const LISTEN_RETRY_MS = 1000;

type Connection = pg.ClientConfig & { connectionString: string };

/** Listens on `channel` at `url` until the answer is called; a no-op without a URL. */
export async function listenOn(
  url: string | undefined,
  connection: Connection,
  channel: string,
  onNotify: () => void,
): Promise<() => Promise<void>> {
  if (url === undefined) return async () => {};
  const urls = urlsOfHosts(url);
  const finder = urls.length > 1 ? new PrimaryFinder(urls, connection) : undefined;
  if (finder) await finder.search();
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let stopped = false;
  const tryAgain = () => {
    if (stopped || retry) return;
    retry = setTimeout(async () => {
      await finder?.search();
      retry = undefined;
      void open();
    }, LISTEN_RETRY_MS);
  };
  const open = async () => {
    const c = new pg.Client({ ...connection, connectionString: finder?.current() ?? url });
    c.on('notification', () => onNotify());
    c.on('error', () => {}); // 'end' follows
    c.once('end', () => {
      if (client === c) client = undefined;
      tryAgain();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      if (stopped) return void (await c.end());
      client = c;
      onNotify();
    } catch {
      await c.end().catch(() => {});
      tryAgain();
    }
  };
  await open();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}
