import cluster from 'node:cluster';
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

// Prometheus metrics. Each app has a registry of its own (the tests run many apps in one process); in
// a cluster (WEB_CONCURRENCY > 1) a scrape reaches one worker, which asks the primary to gather every
// worker's registry, so the answer counts the whole service, not the worker that happened to answer.

const REQUEST = 'callsign:metrics-request';
const ANSWER = 'callsign:metrics-answer';
/** The primary's gathering waits this long for the workers (prom-client gives up after 5 s itself). */
const GATHER_TIMEOUT_MS = 6000;

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

export class Metrics {
  readonly registry = new Registry();
  /** by route template (never the raw URL: ids and tokens stay out, and the series stay few) */
  readonly httpRequests = new Counter({
    name: 'callsign_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'callsign_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by route template and method',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly webhookAttempts = new Counter({
    name: 'callsign_webhook_attempts_total',
    help: 'Webhook delivery attempts, by outcome (delivered, retrying, failed for good)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** back-channel logouts sent to clients, by outcome */
  readonly backchannelLogoutAttempts = new Counter({
    name: 'callsign_backchannel_logout_attempts_total',
    help: 'OIDC back-channel logout attempts, by outcome (delivered, retrying, failed for good)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** The SMS defence: sends by destination country and outcome, codes entered, breakers open. */
  readonly otpSends = new Counter({
    name: 'callsign_otp_sends_total',
    help: 'Code sends by destination country, outcome (sent, refused_country, refused_type, refused_prefix, challenged, over_cap, over_budget, rate_limited) and whether an app attested the send (true, false)',
    labelNames: ['country', 'outcome', 'attested'] as const,
    registers: [this.registry],
  });
  readonly signIns = new Counter({
    name: 'callsign_signins_total',
    help: 'Sign-ins, by the way the person proved who they are (pin, passkey, code, recovery_code)',
    labelNames: ['method'] as const,
    registers: [this.registry],
  });
  /** The SIM checks before a code signs in or resets a PIN: each lookup's answer, by provider and check. */
  readonly phoneChecks = new Counter({
    name: 'callsign_phone_checks_total',
    help: 'SIM checks asked of the provider, by provider, check (sim_swap, number_recycling) and outcome (swapped, not_swapped, recycled, not_recycled, unknown)',
    labelNames: ['provider', 'check', 'outcome'] as const,
    registers: [this.registry],
  });

  /** The silent checks of a number by its mobile network: each check's answer, by provider and country. */
  readonly networkVerifications = new Counter({
    name: 'callsign_network_verifications_total',
    help: 'Numbers checked silently by their mobile network, by provider, country and outcome (verified, other_number, unavailable, error)',
    labelNames: ['provider', 'country', 'outcome'] as const,
    registers: [this.registry],
  });
  /** Apps' attestations of a code's send: each one's outcome (attested, or why it was refused), by platform. */
  readonly appAttestations = new Counter({
    name: 'callsign_app_attestations_total',
    help: 'App attestations checked, by platform (android, ios) and outcome (attested, unavailable, app_not_recognized, device_integrity, stale, replayed, wrong_binding)',
    labelNames: ['platform', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly otpVerifications = new Counter({
    name: 'callsign_otp_verifications_total',
    help: 'Codes entered, by destination country',
    labelNames: ['country'] as const,
    registers: [this.registry],
  });
  readonly smsBreakerOpen = new Gauge({
    name: 'callsign_sms_breaker_open',
    help: 'Whether the country breaker of the SMS defence is open (1) or closed (0), as this process last saw it',
    labelNames: ['country'] as const,
    registers: [this.registry],
    aggregator: 'max',
  });

  /** Messages to phones: each attempt's and each receipt's outcome, and the time to a delivery receipt. */
  readonly messages = new Counter({
    name: 'callsign_messages_total',
    help: 'Messages by channel, provider and outcome (accepted or failed by the provider; then delivered, read, failed or undelivered as its receipts report)',
    labelNames: ['channel', 'provider', 'outcome'] as const,
    registers: [this.registry],
  });
  /** The economics of codes: each code a provider took, and what it cost. */
  readonly codesSent = new Counter({
    name: 'callsign_codes_sent_total',
    help: 'Codes a provider took, by destination country (ISO 3166-1 alpha-2, 001 for none), provider, channel and whether an earlier provider or channel had failed (fell_back: true, false)',
    labelNames: ['country', 'provider', 'channel', 'fell_back'] as const,
    registers: [this.registry],
  });
  readonly codesCost = new Counter({
    name: 'callsign_codes_cost_total',
    help: 'What the codes a provider took cost, as priced when sent (the vendor’s answer or the price table), by destination country, provider and channel',
    labelNames: ['country', 'provider', 'channel'] as const,
    registers: [this.registry],
  });
  readonly messageDelivery = new Histogram({
    name: 'callsign_message_delivery_seconds',
    help: 'Seconds from a message sent to its delivery receipt, by channel and provider',
    labelNames: ['channel', 'provider'] as const,
    buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300, 900],
    registers: [this.registry],
  });

  constructor(pendingDeliveries: () => Promise<number>) {
    collectDefaultMetrics({ register: this.registry });
    const registry = this.registry;
    new Gauge({
      name: 'callsign_webhook_deliveries_pending',
      help: 'Webhook deliveries waiting for a first or a further attempt',
      registers: [registry],
      // The same count in every worker: gathered, it is one value, not their sum.
      aggregator: 'max',
      async collect() {
        this.set(await pendingDeliveries());
      },
    });
    if (cluster.isWorker) {
      new AggregatorRegistry(); // answers the primary's requests for this worker's metrics
      AggregatorRegistry.setRegistries([this.registry]);
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The text exposition: this process's, or in a cluster worker the whole cluster's. */
  text(): Promise<string> {
    return cluster.isWorker ? askPrimary() : this.registry.metrics();
  }
}

const waiting = new Map<number, (answer: Answer) => void>();
let asked = 0;
let listening = false;

function askPrimary(): Promise<string> {
  if (!listening) {
    listening = true;
    process.on('message', (m: Answer) => {
      if (m?.type === ANSWER) waiting.get(m.id)?.(m);
    });
  }
  const id = ++asked;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => settle({ type: ANSWER, id, error: 'the primary did not answer' }),
      GATHER_TIMEOUT_MS,
    );
    const settle = (a: Answer) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (a.error !== undefined) reject(new Error(`gathering the workers' metrics failed: ${a.error}`));
      else resolve(a.text ?? '');
    };
    waiting.set(id, settle);
    process.send?.({ type: REQUEST, id });
  });
}

/** In the primary of a cluster: gathers every worker's metrics for the worker a scrape reached. */
export function gatherWorkerMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, m: { type?: string; id?: number }) => {
    if (m?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: m.id, text }),
      (err: Error) => worker.send({ type: ANSWER, id: m.id, error: err.message }),
    );
  });
}
