import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, readDotEnv } from './config/config.ts';
import { buildContainer, type Container } from './container.ts';

export interface Running {
  app: FastifyInstance;
  container: Container;
  stop(): Promise<void>;
}

/** Loads config, builds the container, starts HTTP; SIGTERM/SIGINT stop it gracefully. */
export async function serve(
  env: Record<string, string | undefined> = { ...readDotEnv(), ...process.env },
): Promise<Running> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const container = await buildContainer(config);
  const app = await buildApp(container);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const storage = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`;
  process.stdout.write(
    [
      `Callsign ${config.version} (${config.appEnv}) listening on http://localhost:${port}`,
      `  API docs:  http://localhost:${port}/docs    health: http://localhost:${port}/health`,
      `  storage:   ${storage}${config.redisUrl ? ' + Redis' : ''}`,
      `  SMS:       ${config.smsProvider}${config.smsProvider === 'console' ? ' (codes are printed below as [sms:console] lines)' : ''}`,
      '',
    ].join('\n'),
  );

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Fastify stops accepting, answers 503 to new requests on kept-alive sockets, waits for in-flight ones.
      await app.close();
      await container.close();
    })();
    return stopping;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      container.logger.info({ signal }, 'shutting down');
      stop().then(
        () => process.exit(0),
        (err) => {
          container.logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { app, container, stop };
}
