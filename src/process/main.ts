import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildContainer } from '../composition/container.ts';
import {
  type Config,
  ConfigError,
  configWarnings,
  loadConfig,
  MEMORY_DATABASE_URL,
  readDotEnv,
} from '../config/config.ts';
import { usesRedis } from '../config/redis-settings.ts';
import { buildApp, buildMetricsApp } from '../http/app.ts';
import { closeGracefully } from '../http/plugins/connections.ts';
import { gatherWorkerMetrics } from '../observability/metrics.ts';
import { openDatabase, storageWarnings } from '../storage/db.ts';
import { migrate } from '../storage/migrate.ts';
import { limitHeapGrowth } from './heap-growth.ts';

type Env = Record<string, string | undefined>;

/** `callsign serve`: one process, or with WEB_CONCURRENCY > 1 a primary that runs that many HTTP workers. */
export async function serve(env: Env = { ...readDotEnv(), ...process.env }): Promise<void> {
  limitHeapGrowth();
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (cluster.isPrimary && config.webConcurrency > 1) return runPrimary(config);
  return runWorker(config);
}

function banner(config: Config, port: number, warnings: string[]) {
  const storage = !config.databaseUrl
    ? `PGlite in ${config.dataDir}/pglite`
    : config.databaseUrl === MEMORY_DATABASE_URL
      ? 'PGlite in memory (DATABASE_URL=memory://): nothing is kept after the process exits'
      : 'PostgreSQL (DATABASE_URL)';
  const workers = config.webConcurrency > 1 ? `, ${config.webConcurrency} workers` : '';
  process.stdout.write(
    [
      `Callsign ${config.version} (${config.appEnv}${workers}) listening on http://localhost:${port}`,
      `  API docs:  http://localhost:${port}/docs    health: http://localhost:${port}/health`,
      config.adminToken
        ? `  console:   http://localhost:${port}/console (sign in with ADMIN_TOKEN)`
        : '  console:   off (set ADMIN_TOKEN to turn on the admin API and the console)',
      `  storage:   ${storage}${usesRedis(config) ? ' + Redis' : ''}`,
      `  Messages:  ${config.messaging.providers.map((p) => p.name).join(', ')}${config.messaging.providers.some((p) => p.type === 'console') ? ' (codes are printed below as [sms:console] lines)' : ''}`,
      ...[...configWarnings(config), ...warnings].map((w) => `  warning:   ${w}`),
      '',
    ].join('\n'),
  );
}

/** Listens on PORT and HOST; answers the port taken (PORT=0 takes a free one). A busy port says what to set. */
async function listen(app: FastifyInstance, config: Config): Promise<number> {
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    throw new Error(
      `port ${config.port} on ${config.host} is already in use: stop what uses it, or set PORT to another port (PORT=0 takes any free one)`,
    );
  }
  const address = app.server.address();
  return typeof address === 'object' && address ? address.port : config.port;
}

/** Builds the container, listens, and stops gracefully on SIGTERM/SIGINT. */
async function runWorker(config: Config): Promise<void> {
  const container = await buildContainer(config);
  const app = await buildApp(container);
  // Before listening: a signal that comes as soon as the banner shows stops gracefully too.
  onSignal(container.logger, async () => {
    // No new connections; in-flight requests get the grace period, late ones a 503 in their surface's
    // format (plugins/connections.ts); the container then waits for the running job and closes the database.
    await closeGracefully(app);
    await container.close();
  });
  const port = await listen(app, config);
  if (cluster.isWorker) process.send?.({ listening: port });
  else banner(config, port, await storageWarnings(container.db));
  container.worker.start();
  container.keys.startAutoReload();
}

/**
 * `callsign worker`: the periodic jobs alone; its only HTTP is GET /metrics on PORT, when METRICS_TOKEN is set
 *, so the deliveries it makes are counted where a scraper can read them.
 */
export async function work(env: Env = { ...readDotEnv(), ...process.env }): Promise<void> {
  limitHeapGrowth();
  const config = loadConfig(env);
  const container = await buildContainer(config);
  const metrics = config.metricsToken ? buildMetricsApp(container) : undefined;
  const lines = ['Callsign worker running: webhook delivery and periodic jobs'];
  // Listening first: a port already taken stops the start before any job has begun.
  if (metrics)
    lines.push(
      `  metrics:   http://localhost:${await listen(metrics, config)}/metrics (bearer METRICS_TOKEN)`,
    );
  container.worker.start();
  process.stdout.write(`${lines.join('\n')}\n`);
  onSignal(container.logger, async () => {
    await metrics?.close();
    await container.close();
  });
}

/** SIGTERM and SIGINT stop once, gracefully, and exit 0 (1 when stopping failed). */
function onSignal(logger: Logger, stop: () => Promise<void>) {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => handle('SIGTERM'));
  process.once('SIGINT', () => handle('SIGINT'));
}

/** Migrates once, forks the workers (they share the port), passes signals on, and exits when they have. */
async function runPrimary(config: Config): Promise<void> {
  const db = await openDatabase(config, config.dataDir);
  let warnings: string[];
  try {
    await migrate(db);
    warnings = await storageWarnings(db);
  } finally {
    await db.close();
  }
  let listening = 0;
  let stopping = false;
  gatherWorkerMetrics(); // A scrape reaching one worker counts them all
  for (let i = 0; i < config.webConcurrency; i++) cluster.fork();
  cluster.on('message', (_worker, message: { listening?: number }) => {
    if (message.listening !== undefined && ++listening === config.webConcurrency)
      banner(config, message.listening, warnings);
  });
  cluster.on('exit', (worker, code) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    process.stderr.write(`worker ${worker.process.pid} exited (${code}); starting another\n`);
    cluster.fork();
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    });
  }
}
