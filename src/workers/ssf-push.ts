import type { Logger } from 'pino';
import type { PurposeKeys } from '../domain/purpose-keys.ts';
import type { SecurityEventTokens } from '../domain/signals/security-event-tokens.ts';
import { afterFailure } from '../domain/webhooks/webhook-rules.ts';
import type { Clock } from '../providers/clock.ts';
import type { WebhookSender } from '../providers/webhook-sender.ts';
import type { Database } from '../storage/db.ts';
import { type ClaimedPush, ssfPushesRepo } from '../storage/repositories/ssf-pushes.ts';
import { SendLoop } from './claimed-sends.ts';

export interface SsfPushDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  sender: WebhookSender;
  tokens: SecurityEventTokens;
  /** opens a stream's sealed Authorization header */
  headerKeys: PurposeKeys;
  concurrency?: number;
  pollMs?: number;
}

/** RFC 8935 §2.3: the receiver refused this SET; sending it again changes nothing. */
const REFUSED = 400;

/**
 * Push delivery of Shared Signals (RFC 8935): each queued event of an enabled, pushed stream is POSTed as its
 * SET (`application/secevent+jwt`) to the stream's endpoint, through the webhooks' sender (its address checks,
 * 10 s, no redirects), with the stream's Authorization header. A 2xx is delivered; a 400 is the receiver's
 * refusal of that SET, not sent again; anything else is tried again on the webhooks' schedule. Every instance
 * runs one; claims in the database keep them apart.
 */
export class SsfPushWorker {
  readonly #loop: SendLoop<ClaimedPush>;

  constructor(private readonly d: SsfPushDeps) {
    this.#loop = new SendLoop({
      claim: (now, lockedUntil, bounds) => ssfPushesRepo.claimDue(d.db, now, lockedUntil, bounds),
      attempt: (c) =>
        this.#send(c).catch((err) => d.logger.error({ err, ssf_event: c.id }, 'a SET push broke')),
      receiverOf: (c) => c.stream_id,
      clock: d.clock,
      concurrency: d.concurrency ?? 16,
      pollMs: d.pollMs ?? 1000,
      onClaimFailed: (err) => d.logger.error({ err }, 'claiming SET pushes failed'),
    });
  }

  /** Sends everything due now, waiting for each attempt; answers how many attempts were made. */
  deliverDue(): Promise<number> {
    return this.#loop.sendAllDue();
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async #send(c: ClaimedPush): Promise<void> {
    const started = this.d.clock.now();
    const set = this.d.tokens.make(
      c,
      { client_id: c.client_id, id_token_signed_response_alg: c.id_token_signed_response_alg },
      c.stream_id,
    );
    if (!set) {
      const none = { status: 'delivered' as const, attempts: c.attempts, next_attempt_at: null };
      await ssfPushesRepo.record(this.d.db, c, {
        ...none,
        started_at: started,
        status_code: null,
        error: null,
      });
      return;
    }
    const headers: Record<string, string> = {
      'content-type': 'application/secevent+jwt',
      accept: 'application/json',
      'user-agent': 'Callsign-Shared-Signals',
    };
    if (c.authorization_header_enc)
      headers.authorization = this.d.headerKeys.open(c.authorization_header_enc).toString();
    const result = await this.d.sender.send(c.endpoint_url, headers, set);
    const attempts = c.attempts + 1;
    const outcome =
      result.error === null
        ? { status: 'delivered' as const, next: null }
        : result.statusCode === REFUSED
          ? { status: 'failed' as const, next: null }
          : afterFailure(attempts, this.d.clock.now());
    // Neither the SET nor the header is logged: the header is the receiver's credential.
    const log = {
      ssf_event: {
        id: c.id,
        stream_id: c.stream_id,
        attempt: attempts,
        status_code: result.statusCode,
        error: result.error,
        outcome: outcome.status,
      },
    };
    if (result.error === null) this.d.logger.info(log, 'SET pushed');
    else this.d.logger.warn(log, 'SET push failed');
    await ssfPushesRepo.record(this.d.db, c, {
      started_at: started,
      status_code: result.statusCode,
      error: result.error,
      status: outcome.status,
      attempts,
      next_attempt_at: outcome.next,
    });
  }
}
