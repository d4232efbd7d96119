import type { Logger } from 'pino';
import type { Count } from '../domain/counts.ts';
import { signDelivery } from '../domain/webhooks/signature.js';
import { afterFailure } from '../domain/webhooks/webhook-rules.ts';
import { type Clock, unixSeconds } from '../providers/clock.ts';
import type { WebhookSender } from '../providers/webhook-sender.ts';
import type { Database } from '../storage/db.ts';
import {
  type AttemptResult,
  type ClaimedDelivery,
  webhookDeliveriesRepo,
} from '../storage/repositories/webhook-deliveries.ts';
import { SendLoop } from './claimed-sends.ts';

export interface DeliveryWorkerDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  sender: WebhookSender;
  signingSecrets(
    e: Pick<ClaimedDelivery, 'secret_enc' | 'previous_secret_enc' | 'previous_secret_expires_at'>,
  ): string[];
  /** attempts in flight at once in this process */
  concurrency?: number;
  /** how often an idle worker looks for due deliveries without being told of new ones */
  pollMs?: number;
  /** each attempt's outcome */
  attempts?: Count<'outcome'>;
}

/** Migration 010's trigger notifies this channel (at commit) for each transaction that writes deliveries. */
export const DELIVERIES_CHANNEL = 'callsign_webhook_deliveries';
/**
 * Notifications within this long of the first are answered by one claim: at a thousand events a
 * second, a claim (and a write of results) per event would cost the database more than the events do.
 */
const NOTIFY_GATHER_MS = 20;

/**
 * Sends due deliveries. Every instance runs one; claims in the database keep them apart. A worker
 * that dies mid-attempt leaves its claim to run out, and then another worker sends the delivery again:
 * at least once, with the same envelope id.
 */
export class WebhookDeliveryWorker {
  readonly #loop: SendLoop<ClaimedDelivery>;
  #running = false;
  #gathering: NodeJS.Timeout | undefined;
  #listening: Promise<() => Promise<void>> | undefined;
  /** results waiting to be written, in one statement for all that finished together */
  #results: { claim: ClaimedDelivery; result: AttemptResult; written: () => void }[] = [];
  #flushScheduled = false;

  constructor(private readonly d: DeliveryWorkerDeps) {
    this.#loop = new SendLoop({
      claim: (now, lockedUntil, bounds) => webhookDeliveriesRepo.claimDue(d.db, now, lockedUntil, bounds),
      attempt: (c) => this.#attempt(c),
      receiverOf: (c) => c.endpoint_id,
      clock: d.clock,
      concurrency: d.concurrency ?? 128,
      pollMs: d.pollMs ?? 200,
      onClaimFailed: (err) => d.logger.error({ err }, 'claiming webhook deliveries failed'),
    });
  }

  /** Sends everything due now, waiting for each attempt; answers how many attempts were made. */
  deliverDue(): Promise<number> {
    return this.#loop.sendAllDue();
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#listening = this.d.db.listen(DELIVERIES_CHANNEL, () => {
      if (!this.#running) return;
      this.#gathering ??= setTimeout(() => {
        this.#gathering = undefined;
        this.#loop.tell();
      }, NOTIFY_GATHER_MS);
    });
    // Without a notification the poll still finds every delivery.
    this.#listening.catch((err) => this.d.logger.warn({ err }, 'listening for webhook deliveries failed'));
    this.#loop.start();
  }

  /** Stops claiming and waits for the attempts in flight (graceful shutdown). */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#gathering);
    await this.#loop.stop();
    const unlisten = await this.#listening?.catch(() => undefined);
    await unlisten?.();
  }

  /** One attempt; never rejects: an unexpected failure (a secret that no longer decrypts) is logged and the
   * claim left to run out, so the delivery is tried again rather than lost. */
  #attempt(c: ClaimedDelivery): Promise<void> {
    return this.#send(c).catch((err) =>
      this.d.logger.error(
        { err, webhook: { delivery_id: c.id, endpoint_id: c.endpoint_id } },
        'webhook attempt broke',
      ),
    );
  }

  async #send(c: ClaimedDelivery): Promise<void> {
    const started = this.d.clock.now();
    // The envelope (spec "Delivery format"); `data` is the stored JSON text, byte for byte on every attempt.
    const body = `{"id":${JSON.stringify(c.event_id)},"type":${JSON.stringify(c.event_type)},"created_at":"${c.event_created_at.toISOString()}","data":${c.event_data}}`;
    const headers = {
      'content-type': 'application/json',
      ...signDelivery(this.d.signingSecrets(c), c.event_id, unixSeconds(started), body),
      'X-Service-Event': c.event_type,
    };
    const result = await this.d.sender.send(c.url, headers, body);
    const finished = this.d.clock.now();
    const attempts = c.attempts + 1;
    const outcome =
      result.error === null ? { status: 'delivered' as const, next: null } : afterFailure(attempts, finished);
    const log = {
      webhook: {
        delivery_id: c.id,
        endpoint_id: c.endpoint_id,
        event_id: c.event_id,
        event_type: c.event_type,
        attempt: attempts,
        status_code: result.statusCode,
        latency_ms: result.latencyMs,
        error: result.error,
        outcome: outcome.status,
      },
    };
    if (result.error === null) this.d.logger.info(log, 'webhook delivered');
    else this.d.logger.warn(log, 'webhook attempt failed');
    this.d.attempts?.inc({ outcome: outcome.status === 'pending' ? 'retrying' : outcome.status });
    await new Promise<void>((written) => {
      this.#results.push({
        claim: c,
        result: {
          started_at: started,
          latency_ms: result.latencyMs,
          status_code: result.statusCode,
          error: result.error,
          status: outcome.status,
          attempts,
          next_attempt_at: outcome.next,
        },
        written,
      });
      if (!this.#flushScheduled) {
        this.#flushScheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  async #flush(): Promise<void> {
    this.#flushScheduled = false;
    const batch = this.#results;
    this.#results = [];
    try {
      await webhookDeliveriesRepo.recordAttempts(this.d.db, batch);
    } catch {
      // Each result on its own then, so that one that can't be written costs no other its record.
      for (const one of batch) await this.#recordAlone(one);
    }
    for (const b of batch) b.written();
  }

  async #recordAlone(one: { claim: ClaimedDelivery; result: AttemptResult }): Promise<void> {
    try {
      await webhookDeliveriesRepo.recordAttempts(this.d.db, [one]);
    } catch (err) {
      // Its claim runs out and the delivery is sent again: at least once.
      this.d.logger.error({ err, delivery_id: one.claim.id }, 'recording a webhook attempt failed');
    }
  }
}
