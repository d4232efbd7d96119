// The signals room: telling relying parties, by the OpenID Shared Signals Framework, that an account they know
// is at risk or changed. It owns the streams each client keeps, what they carry, their status and verification,
// and the delivery of their Security Event Tokens by poll (RFC 8936) or push (RFC 8935, workers/ssf-push.ts).
//
// Rules it enforces:
// - A client sees and changes only its own streams; another client's stream is "no such stream".
// - A stream carries only the events it asked for that Callsign supports, and only about accounts its client
//   knows (storage/repositories/ssf-events.ts); an event about one session goes to that session's client.
// - A paused stream keeps its events until it is enabled again; a disabled one drops them and queues none.
// - A status set by the operator is told to the receiver by a stream-updated event, whatever the status.
// - A receiver may ask for a verification event at most once a minute (MIN_VERIFICATION_INTERVAL).
// - A stream's settings are checked as stream-settings.ts says.
// - A poll answers at most MOST_EVENTS_A_POLL events, oldest first, and says whether more wait; an event is
//   answered again until it is acknowledged (or reported in `setErrs`), so none is lost to a failed answer.
import type { Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { ssfEventsRepo } from '../../storage/repositories/ssf-events.ts';
import { type StreamRow, type StreamStatus, ssfStreamsRepo } from '../../storage/repositories/ssf-streams.ts';
import { DomainError, fieldError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import type { PurposeKeys } from '../purpose-keys.ts';
import { EVENTS_SUPPORTED, STREAM_UPDATED, VERIFICATION } from './event-types.ts';
import type { SecurityEventTokens } from './security-event-tokens.ts';
import { deliveryOf, POLL, type StreamInput, streamSettings } from './stream-settings.ts';

/** The seconds a receiver waits between verification requests. */
export const MIN_VERIFICATION_INTERVAL = 60;
export const MOST_EVENTS_A_POLL = 100;

/** A poll as RFC 8936 §2.4 asks it. */
export interface PollInput {
  maxEvents?: number;
  returnImmediately?: boolean;
  ack?: string[];
  setErrs?: Record<string, { err: string; description?: string }>;
}

export interface SignalsDeps {
  db: Database;
  clock: Clock;
  random: Random;
  tokens: SecurityEventTokens;
  issuer: string;
  /** where a stream's poll endpoint is: BASE_URL */
  baseUrl: string;
  /** seals a pushed stream's Authorization header */
  headerKeys: PurposeKeys;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: whether a push may go to a private address */
  allowPrivateNetworks: boolean;
}

type Client = Pick<ClientRow, 'client_id' | 'id_token_signed_response_alg'>;

/** A stream's status as SSF §8.1.2 answers it. */
const statusOf = (s: StreamRow) => ({
  stream_id: s.id,
  status: s.status,
  ...(s.status_reason ? { reason: s.status_reason } : {}),
});

const noSuchStream = () => new DomainError('NOT_FOUND', 'no such stream');

export class Signals {
  constructor(private readonly d: SignalsDeps) {}

  /** A stream's configuration as SSF §8.1.1 shows it. */
  configuration(s: StreamRow) {
    const delivered = s.events_requested.filter((e) => EVENTS_SUPPORTED.includes(e));
    return {
      stream_id: s.id,
      iss: this.d.issuer,
      aud: s.client_id,
      events_supported: EVENTS_SUPPORTED,
      events_requested: s.events_requested,
      events_delivered: delivered,
      delivery: {
        method: s.delivery_method,
        endpoint_url: s.endpoint_url ?? `${this.d.baseUrl}/ssf/poll/${s.id}`,
      },
      min_verification_interval: MIN_VERIFICATION_INTERVAL,
      ...(s.description ? { description: s.description } : {}),
    };
  }

  async create(client: Client, input: StreamInput) {
    const settings = streamSettings(this.d, input);
    const row = await ssfStreamsRepo.insert(this.d.db, {
      ...settings,
      id: this.d.random.uuid(),
      client_id: client.client_id,
      now: this.d.clock.now(),
    });
    if (!row) throw new Error('a stream that was just written is not there');
    return this.configuration(row);
  }

  /** One stream of the client's, or all of them. */
  async read(client: Client, streamId?: string) {
    if (streamId === undefined)
      return (await ssfStreamsRepo.ofClient(this.d.db, client.client_id)).map((s) => this.configuration(s));
    return this.configuration(await this.#stream(client, streamId));
  }

  /** The client's streams with their status, as the operator sees them. */
  async withStatus(client: Client) {
    const streams = await ssfStreamsRepo.ofClient(this.d.db, client.client_id);
    return streams.map((s) => ({ ...this.configuration(s), ...statusOf(s) }));
  }

  /** PATCH (only what is given changes) or PUT (what is not given is cleared). */
  async update(client: Client, streamId: string, input: StreamInput, replace: boolean) {
    const s = await this.#stream(client, streamId);
    const settings = streamSettings(
      this.d,
      replace
        ? input
        : {
            events_requested: input.events_requested ?? s.events_requested,
            description: input.description === undefined ? s.description : input.description,
            delivery: input.delivery ?? { method: POLL },
          },
    );
    // A PATCH that names no delivery keeps the stream's own: its endpoint and its sealed header.
    const kept = replace || input.delivery ? settings : { ...settings, ...deliveryOf(s) };
    const row = await ssfStreamsRepo.update(this.d.db, client.client_id, s.id, kept, this.d.clock.now());
    if (!row) throw noSuchStream();
    return this.configuration(row);
  }

  async remove(client: Client, streamId: string): Promise<void> {
    if (!(await ssfStreamsRepo.remove(this.d.db, client.client_id, this.#id(streamId)))) throw noSuchStream();
  }

  async status(client: Client, streamId: string) {
    return statusOf(await this.#stream(client, streamId));
  }

  /**
   * A stream's status set; by the transmitter (an operator) rather than the receiver, the receiver is told by a
   * stream-updated event (SSF §8.1.5), queued in the same transaction.
   */
  async setStatus(
    client: Client,
    streamId: string,
    status: StreamStatus,
    reason?: string,
    byTransmitter = false,
  ) {
    const id = this.#id(streamId);
    const now = this.d.clock.now();
    const row = await this.d.db.transaction(async (tx) => {
      const set = await ssfStreamsRepo.setStatus(tx, client.client_id, id, status, reason ?? null, now);
      const told = { type: STREAM_UPDATED, members: { status, ...(reason ? { reason } : {}) } };
      if (set && byTransmitter) await ssfEventsRepo.queueOwn(tx, id, this.d.random.uuid(), told, now);
      return set;
    });
    if (!row) throw noSuchStream();
    return statusOf(row);
  }

  /** SSF §8.1.4: a verification event, with the receiver's state, queued on the stream. */
  async verify(client: Client, streamId: string, state?: string): Promise<void> {
    const s = await this.#stream(client, streamId);
    const now = this.d.clock.now();
    const askedAt = await ssfStreamsRepo.requestVerification(this.d.db, s.id, now, MIN_VERIFICATION_INTERVAL);
    if (!askedAt)
      throw new DomainError(
        'RATE_LIMITED',
        `ask for a verification at most once in ${MIN_VERIFICATION_INTERVAL} s`,
        {
          retry_after_seconds: MIN_VERIFICATION_INTERVAL,
        },
      );
    const own = { type: VERIFICATION, members: state === undefined ? {} : { state } };
    await ssfEventsRepo.queueOwn(this.d.db, s.id, this.d.random.uuid(), own, now);
  }

  /** RFC 8936 §2.4: acknowledgements taken, then the events waiting as SETs by jti. */
  async poll(client: Client, streamId: string, input: PollInput) {
    const s = await this.#stream(client, streamId);
    if (s.delivery_method !== POLL) throw fieldError('INVALID_REQUEST', 'stream_id', 'this stream is pushed');
    const done = [...(input.ack ?? []), ...Object.keys(input.setErrs ?? {})];
    if (done.length) await ssfEventsRepo.acknowledge(this.d.db, s.id, done, this.d.clock.now());
    const max = Math.min(input.maxEvents ?? MOST_EVENTS_A_POLL, MOST_EVENTS_A_POLL);
    if (max === 0) return { sets: {}, moreAvailable: false };
    const { events, more } = await ssfEventsRepo.pending(this.d.db, s.id, max);
    const sets: Record<string, string> = {};
    const madeNone: string[] = [];
    for (const e of events) {
      const set = this.d.tokens.make(e, client, s.id);
      if (set) sets[e.id] = set;
      else madeNone.push(e.id);
    }
    if (madeNone.length) await ssfEventsRepo.acknowledge(this.d.db, s.id, madeNone, this.d.clock.now());
    return { sets, moreAvailable: more };
  }

  async #stream(client: Client, streamId: string): Promise<StreamRow> {
    const s = await ssfStreamsRepo.find(this.d.db, client.client_id, this.#id(streamId));
    if (!s) throw noSuchStream();
    return s;
  }

  /** A stream id is a UUID; anything else names no stream (and never reaches a uuid column). */
  #id(streamId: string): string {
    if (!isUuid(streamId)) throw noSuchStream();
    return streamId;
  }
}
