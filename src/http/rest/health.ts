import type { FastifyInstance } from 'fastify';
import type { Container } from '../../composition/container.ts';
import { databaseAnswers } from '../../storage/db.ts';
import { migrationsCurrent } from '../../storage/migrate.ts';

// Health for load balancers and orchestrators, bare JSON without the envelope:
// - /health (the spec's): 200 "ok" when the database answers, 503 "degraded" otherwise. Redis does not count:
//   while it is down the rate limits count in the database, so every instance still serves, and taking them
//   all out of the load balancer would stop the service for an outage it rides through.
// - /health/live: 200 while the process serves. Once it is stopping, every request, this one too, answers 503
//   (plugins/connections.ts), so an orchestrator sees the drain.
// - /health/ready: 200 when the database answers and holds every migration this code knows; 503 naming each
//   part that fails. A new instance on a database an older one has not migrated yet is not ready until the
//   migrations ran. Redis that does not answer is named under `degraded`, and the instance stays ready.

/** The services these routes use. */
type Services = Pick<Container, 'clock' | 'config' | 'db' | 'redis'>;

/** Each check's most time: with the rate count's own short wait, an answer within a second whatever is down. */
const CHECK_DEADLINE_MS = 800;

/** `{status, version, timestamp}`, bare: a load balancer reads it. */
const HEALTH = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    version: { type: 'string' },
    timestamp: { type: 'string', format: 'date-time' },
  },
  required: ['status', 'version', 'timestamp'],
};

const READINESS = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ready', 'not_ready'] },
    failing: {
      type: 'array',
      items: { type: 'string', enum: ['database', 'migrations'] },
      description: 'the parts that do not pass',
    },
    degraded: {
      type: 'array',
      items: { type: 'string', enum: ['redis'] },
      description: 'the parts that do not answer, which the instance serves without',
    },
  },
  required: ['status', 'failing', 'degraded'],
};

const probe = (summary: string, responses: Record<number, object>) => ({
  schema: { tags: ['REST'], summary, response: responses },
  config: { rateLimitOptional: true },
});

/** Whether a check answered in time without an error. */
const passes = (check: () => Promise<unknown>) =>
  Promise.race([
    check(),
    new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_DEADLINE_MS).unref()),
  ]).then(
    (answer) => answer !== false,
    () => false,
  );

export function healthRoutes(app: FastifyInstance, c: Services) {
  const { redis } = c;

  app.get(
    '/health',
    probe('Service health', {
      200: { description: 'the database answers', ...HEALTH },
      503: { description: 'the database does not answer: take the instance out', ...HEALTH },
    }),
    async (_request, reply) => {
      const healthy = await passes(() => databaseAnswers(c.db));
      return reply.status(healthy ? 200 : 503).send({
        status: healthy ? 'ok' : 'degraded',
        version: c.config.version,
        timestamp: c.clock.now().toISOString(),
      });
    },
  );

  app.get(
    '/health/live',
    probe('Liveness: the process serves (503 once it is stopping)', {
      200: {
        description: 'serving',
        type: 'object',
        properties: { status: { type: 'string', enum: ['live'] } },
        required: ['status'],
      },
    }),
    async () => ({ status: 'live' as const }),
  );

  app.get(
    '/health/ready',
    probe('Readiness: the database answers with every migration', {
      200: { description: 'ready for traffic', ...READINESS },
      503: { description: 'not ready: `failing` names what', ...READINESS },
    }),
    async (_request, reply) => {
      const [database, migrations, redisAnswers] = await Promise.all([
        passes(() => databaseAnswers(c.db)),
        passes(() => migrationsCurrent(c.db)),
        // A Redis client that is not connected is degraded at once: its ping would wait out the deadline, and
        // a load balancer's check may give up sooner and take every instance out.
        redis ? redis.status === 'ready' && passes(() => redis.ping()) : Promise.resolve(true),
      ]);
      const failing = Object.entries({ database, migrations })
        .filter(([, ok]) => !ok)
        .map(([part]) => part);
      return reply.status(failing.length === 0 ? 200 : 503).send({
        status: failing.length === 0 ? 'ready' : 'not_ready',
        failing,
        degraded: redisAnswers ? [] : ['redis'],
      });
    },
  );
}
