// The webhooks room: telling other systems what happened. It owns the events written to the outbox, the
// webhook endpoints and their rules, and the rules of every address this service connects to for someone else.
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import { outboxRepo } from '../../storage/repositories/outbox.ts';
import { webhookDeliveriesRepo } from '../../storage/repositories/webhook-deliveries.ts';
import {
  type WebhookEndpointRow,
  webhookEndpointsRepo,
} from '../../storage/repositories/webhook-endpoints.ts';
import { DomainError, fieldError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { parseSendLogPage } from '../paging.ts';
import type { PurposeKeys } from '../purpose-keys.ts';
import { type EndpointSpec, newWebhookSecret, parseEndpointSpec } from './webhook-rules.ts';

export interface WebhookEndpointDeps {
  db: Database;
  clock: Clock;
  random: Random;
  /** encrypts the signing secrets at rest (they must be readable to sign, so they can't be hashed) */
  secretKeys: PurposeKeys;
  allowPrivateNetworks: boolean;
}

/** Not one of the spec's event types: only ever sent to the endpoint an operator tests. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** How long the previous secret keeps signing after a roll, unless the operator says otherwise. */
export const DEFAULT_ROLL_OVERLAP_SECONDS = 24 * 3600;
const MAX_ROLL_OVERLAP_SECONDS = 7 * 24 * 3600;

const notFound = (what: string) => new DomainError('NOT_FOUND', `no such ${what}`);

/** The operator's side of webhooks: endpoints, their secrets, the delivery log and replays. */
export class WebhookEndpointService {
  constructor(private readonly d: WebhookEndpointDeps) {}

  async create(body: Record<string, unknown>): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
    const spec = parseEndpointSpec(body, {
      partial: false,
      allowPrivateNetworks: this.d.allowPrivateNetworks,
    }) as EndpointSpec;
    const secret = this.#newSecret();
    const endpoint = await webhookEndpointsRepo.insert(this.d.db, {
      id: this.d.random.uuid(),
      ...spec,
      secret_enc: this.d.secretKeys.seal(Buffer.from(secret)),
      created_at: this.d.clock.now(),
      updated_at: this.d.clock.now(),
    });
    return { endpoint, secret };
  }

  list(): Promise<WebhookEndpointRow[]> {
    return webhookEndpointsRepo.list(this.d.db);
  }

  async get(id: string): Promise<WebhookEndpointRow> {
    const endpoint = isUuid(id) ? await webhookEndpointsRepo.find(this.d.db, id) : undefined;
    if (!endpoint) throw notFound('webhook endpoint');
    return endpoint;
  }

  async update(id: string, body: Record<string, unknown>): Promise<WebhookEndpointRow> {
    await this.get(id);
    const spec = parseEndpointSpec(body, {
      partial: true,
      allowPrivateNetworks: this.d.allowPrivateNetworks,
    });
    const updated = await webhookEndpointsRepo.update(this.d.db, id, spec, this.d.clock.now());
    if (!updated) throw notFound('webhook endpoint');
    return updated;
  }

  /** Deleting an endpoint drops its pending deliveries and their log with it. */
  async delete(id: string): Promise<void> {
    if (!isUuid(id) || !(await webhookEndpointsRepo.delete(this.d.db, id)))
      throw notFound('webhook endpoint');
  }

  /**
   * A new secret, shown once; the current one keeps signing beside it for `overlapSeconds` (Standard
   * Webhooks' roll), so receivers can switch without losing a delivery.
   */
  async rollSecret(
    id: string,
    overlapSeconds: unknown = DEFAULT_ROLL_OVERLAP_SECONDS,
  ): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
    if (
      typeof overlapSeconds !== 'number' ||
      !Number.isInteger(overlapSeconds) ||
      overlapSeconds < 0 ||
      overlapSeconds > MAX_ROLL_OVERLAP_SECONDS
    )
      throw fieldError(
        'INVALID_REQUEST',
        'expires_in',
        `expires_in must be 0-${MAX_ROLL_OVERLAP_SECONDS} seconds`,
      );
    await this.get(id);
    const secret = this.#newSecret();
    const now = this.d.clock.now();
    const endpoint = await webhookEndpointsRepo.rollSecret(
      this.d.db,
      id,
      this.d.secretKeys.seal(Buffer.from(secret)),
      addSeconds(now, overlapSeconds),
      now,
    );
    if (!endpoint) throw notFound('webhook endpoint');
    return { endpoint, secret };
  }

  /** The secrets that sign now: the previous one first while its overlap lasts (see signDelivery), then the current. */
  signingSecrets(
    e: Pick<WebhookEndpointRow, 'secret_enc' | 'previous_secret_enc' | 'previous_secret_expires_at'>,
  ) {
    const open = (enc: string) => this.d.secretKeys.open(enc).toString();
    const previousLive =
      e.previous_secret_enc &&
      e.previous_secret_expires_at &&
      e.previous_secret_expires_at > this.d.clock.now();
    return previousLive ? [open(e.previous_secret_enc as string), open(e.secret_enc)] : [open(e.secret_enc)];
  }

  async deliveries(endpointId: string, query: { status?: unknown; before?: unknown; limit?: unknown }) {
    await this.get(endpointId);
    return webhookDeliveriesRepo.listOfEndpoint(this.d.db, endpointId, parseSendLogPage(query));
  }

  async delivery(id: string) {
    const delivery = isUuid(id) ? await webhookDeliveriesRepo.find(this.d.db, id) : undefined;
    if (!delivery) throw notFound('delivery');
    return { delivery, attempts: await webhookDeliveriesRepo.attemptsOf(this.d.db, id) };
  }

  /** An operator sends a delivery again, on a fresh schedule, with the same envelope id. */
  async replay(id: string) {
    if (!isUuid(id) || !(await webhookDeliveriesRepo.replay(this.d.db, id, this.d.clock.now())))
      throw notFound('delivery');
    return this.delivery(id);
  }

  /**
   * A `webhook.test` event for this endpoint alone, sent like any other (signed, retried, logged), so an
   * operator can check a receiver without causing a real event.
   */
  async sendTest(id: string) {
    const endpoint = await this.get(id);
    if (!endpoint.enabled)
      throw new DomainError('INVALID_REQUEST', 'the endpoint is disabled: enable it to send it a test event');
    const deliveryId = await outboxRepo.insertFor(
      this.d.db,
      {
        id: this.d.random.uuid(),
        type: TEST_EVENT_TYPE,
        data: { endpoint_id: id, message: 'A test event from the Callsign console' },
        createdAt: this.d.clock.now(),
      },
      id,
    );
    return this.delivery(deliveryId);
  }

  #newSecret() {
    return newWebhookSecret(this.d.random.bytes(32));
  }
}
