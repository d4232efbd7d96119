import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { postgresDatabase } from '../src/storage/db.ts';
import { outboxRepo } from '../src/storage/repositories/outbox.ts';
import { type Client, percentile } from './load.ts';

// Issue 6's benchmark: events written to the outbox (straight into the database, as the domain's
// transactions write them) and delivered by the service's own workers to a 2xx receiver on 127.0.0.1.

export interface WebhookFigures {
  backlog: { events: number; seconds: number; perSecond: number };
  paced: { rate: number; events: number; lagP50Ms: number; lagP99Ms: number; maxLagMs: number };
}

/** A receiver that answers 204 and notes, per envelope, when it arrived after its event was written. */
export async function webhookReceiver() {
  const arrivals = new Map<string, { at: number; lagMs: number }>();
  let waiting: { count: number; resolve: () => void } | undefined;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const now = Date.now();
      const e = JSON.parse(body) as { id: string; created_at: string };
      if (!arrivals.has(e.id)) arrivals.set(e.id, { at: now, lagMs: now - Date.parse(e.created_at) });
      res.writeHead(204).end();
      if (waiting && arrivals.size >= waiting.count) waiting.resolve();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench`,
    arrivals,
    until(count: number, timeoutMs: number) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`only ${arrivals.size} of ${count} webhooks arrived`)),
          timeoutMs,
        );
        waiting = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        if (arrivals.size >= count) waiting.resolve();
      });
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const event = () => ({
  id: randomUUID(),
  type: 'user.deleted',
  data: { user_id: randomUUID(), deleted_at: new Date().toISOString() },
  createdAt: new Date(),
});

export async function webhookBenchmark(
  http: Client,
  adminToken: string,
  databaseUrl: string,
  seconds: number,
  rate: number,
): Promise<WebhookFigures> {
  const r = await webhookReceiver();
  const db = postgresDatabase(databaseUrl, { max: 8 });
  try {
    const created = await http.send(
      'POST',
      '/admin/v1/webhook-endpoints',
      JSON.stringify({ url: r.url, events: ['user.deleted'] }),
      { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    );
    if (created.status !== 201) throw new Error(`creating the endpoint failed: ${created.text}`);

    // Throughput: a backlog written in transactions of 500, drained by the workers as it commits.
    const backlog = rate * seconds;
    const started = Date.now();
    for (let i = 0; i < backlog; i += 500)
      await db.transaction(async (tx) => {
        for (let j = i; j < Math.min(backlog, i + 500); j++) await outboxRepo.insert(tx, event());
      });
    await r.until(backlog, 120_000);
    const drained = (Math.max(...[...r.arrivals.values()].map((a) => a.at)) - started) / 1000;

    // Lag: one event per transaction at a steady rate, as sign-ins and profile changes write them.
    r.arrivals.clear();
    const paced = rate * seconds;
    const t0 = performance.now();
    let sent = 0;
    const inFlight = new Set<Promise<unknown>>();
    while (sent < paced) {
      const due = Math.min(paced, Math.floor(((performance.now() - t0) / 1000) * rate));
      for (; sent < due; sent++) {
        const p = outboxRepo.insert(db, event()).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      await new Promise((res) => setTimeout(res, 2));
    }
    await Promise.all(inFlight);
    await r.until(paced, 120_000);
    const lags = [...r.arrivals.values()].map((a) => a.lagMs).sort((a, b) => a - b);
    return {
      backlog: { events: backlog, seconds: drained, perSecond: backlog / drained },
      paced: {
        rate,
        events: paced,
        lagP50Ms: percentile(lags, 50),
        lagP99Ms: percentile(lags, 99),
        maxLagMs: lags.at(-1) ?? 0,
      },
    };
  } finally {
    await db.close();
    await r.close();
  }
}
