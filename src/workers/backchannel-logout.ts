import type { Logger } from 'pino';
import type { Count } from '../domain/counts.ts';
import type { AccessTokens } from '../domain/sessions/access-tokens.ts';
import { signingAlgOr } from '../domain/sessions/signing-algorithms.ts';
import { afterFailure } from '../domain/webhooks/webhook-rules.ts';
import type { Clock } from '../providers/clock.ts';
import type { WebhookSender } from '../providers/webhook-sender.ts';
import type { Database } from '../storage/db.ts';
import { backchannelLogoutsRepo, type ClaimedLogout } from '../storage/repositories/backchannel-logouts.ts';
import { SendLoop } from './claimed-sends.ts';

export interface BackchannelLogoutDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  sender: WebhookSender;
  tokens: AccessTokens;
  /** attempts in flight at once in this process */
  concurrency?: number;
  /** how often the worker looks for due logouts */
  pollMs?: number;
  /** each attempt's outcome */
  attempts?: Count<'outcome'>;
}

/**
 * Tells clients of their ended sessions (OIDC Back-Channel Logout 1.0 §2.5): a form POST of a fresh
 * logout token to the client's logout URI, through the webhooks' sender (its address checks, 10 s, no
 * redirects). A 2xx is done (§2.8 asks 200, and allows 204); anything else is tried again on the webhooks'
 * schedule, since a client that missed a logout keeps a session its user ended. Every instance runs
 * one; claims in the database keep them apart.
 */
export class BackchannelLogoutWorker {
  readonly #loop: SendLoop<ClaimedLogout>;

  constructor(private readonly d: BackchannelLogoutDeps) {
    this.#loop = new SendLoop({
      claim: (now, lockedUntil, bounds) => backchannelLogoutsRepo.claimDue(d.db, now, lockedUntil, bounds),
      attempt: (c) => this.#attempt(c),
      receiverOf: (c) => c.client_id,
      clock: d.clock,
      concurrency: d.concurrency ?? 16,
      pollMs: d.pollMs ?? 1000,
      onClaimFailed: (err) => d.logger.error({ err }, 'claiming back-channel logouts failed'),
    });
  }

  /** Sends everything due now, waiting for each attempt; answers how many attempts were made. */
  deliverDue(): Promise<number> {
    return this.#loop.sendAllDue();
  }

  start(): void {
    this.#loop.start();
  }

  /** Stops claiming and waits for the attempts in flight (graceful shutdown). */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One attempt; never rejects: a failure to record it leaves the claim to run out, and it is sent again. */
  #attempt(c: ClaimedLogout): Promise<void> {
    return this.#send(c).catch((err) =>
      this.d.logger.error({ err, logout: { id: c.id, client_id: c.client_id } }, 'back-channel logout broke'),
    );
  }

  async #send(c: ClaimedLogout): Promise<void> {
    const started = this.d.clock.now();
    const token = this.d.tokens.issueLogoutToken({
      sub: c.user_id,
      aud: c.client_id,
      sid: c.session_id,
      alg: signingAlgOr(c.id_token_signed_response_alg),
    });
    const result = await this.d.sender.send(
      c.url,
      { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Callsign-Backchannel-Logout' },
      new URLSearchParams({ logout_token: token }).toString(),
    );
    const attempts = c.attempts + 1;
    const outcome =
      result.error === null
        ? { status: 'delivered' as const, next: null }
        : afterFailure(attempts, this.d.clock.now());
    // The token is not logged: it is a credential the client acts on.
    const log = {
      logout: {
        id: c.id,
        client_id: c.client_id,
        session_id: c.session_id,
        attempt: attempts,
        status_code: result.statusCode,
        latency_ms: result.latencyMs,
        error: result.error,
        outcome: outcome.status,
      },
    };
    if (result.error === null) this.d.logger.info(log, 'back-channel logout delivered');
    else this.d.logger.warn(log, 'back-channel logout attempt failed');
    this.d.attempts?.inc({ outcome: outcome.status === 'pending' ? 'retrying' : outcome.status });
    await backchannelLogoutsRepo.record(this.d.db, c, {
      started_at: started,
      status_code: result.statusCode,
      error: result.error,
      status: outcome.status,
      attempts,
      next_attempt_at: outcome.next,
    });
  }
}
