// The messaging room: carrying a message to a phone. It owns routes, providers' health, failover, the texts,
// delivery receipts and the re-send of a failed code, message records, and sends off the request's path.
//
// Sends a code or a notice to a phone: picks the route for the number's country, tries the requested
// channel's providers in order, then the fallback channel's, and answers the channel that carried it.
//
// Rules it enforces:
// - The first route whose countries hold the number's country (or `*`) applies.
// - A requested channel with no providers on that route falls back as configured (`fallback`); when no
//   channel of the chain has any, the send is refused before any code is made (INVALID_REQUEST, `channel`).
// - A provider that errs is followed by the next in the list, with the same message; when a channel's list
//   is spent, the fallback channel's list is tried. Only when all have failed does the send fail.
// - Providers set aside after repeated failures (provider-health.ts) are not tried, unless every provider
//   the send could use is set aside: then they are tried in order all the same, since skipping them all
//   would fail the send for certain.
// - Notices (no code) go by SMS's chain only: the other channels carry codes alone.
// - A re-send (after the vendor reported the message failed) goes by the providers after the one that carried
//   it, then the fallback channel's: never again by the one that failed.
// - Every message is recorded (message-log.ts), with each attempt.
import type { Logger } from 'pino';
import type { MessagingRoute } from '../../config/messaging-config.ts';
import type { Language } from '../../i18n/languages.ts';
import {
  type Channel,
  type MessagingProvider,
  type OutgoingMessage,
  ProviderError,
  type ProviderFailure,
  type SentMessage,
} from '../../providers/messaging/provider.ts';
import type { MessageAttempt } from '../../storage/repositories/messages.ts';
import type { Count } from '../counts.ts';
import { fieldError } from '../errors.ts';
import { countryOf, maskPhone } from '../phone.ts';
import type { MessageLog } from './message-log.ts';
import type { ProviderHealth } from './provider-health.ts';
import { type CodeTextSettings, codeText, spokenIntro } from './texts.ts';

export interface MessagingPlan {
  providers: ReadonlyMap<string, MessagingProvider>;
  /** what a message costs per provider and country, where the configuration says */
  prices: ReadonlyMap<string, Readonly<Record<string, number>>>;
  routes: readonly MessagingRoute[];
  fallback: Partial<Record<Channel, Channel>>;
}

export interface MessengerDeps {
  plan: MessagingPlan;
  health: ProviderHealth;
  logger: Logger;
  texts: CodeTextSettings;
  log: MessageLog;
  /** each attempt's outcome (`accepted`, `failed`) and, as receipts come, their status */
  messages?: Count<'channel' | 'provider' | 'outcome'>;
}

/** A code to send: its digits and its row, so that a failed delivery can be re-sent while it lives. */
export interface CodeToSend {
  value: string;
  otpId: string;
  expiresAt: Date;
}

/** What a message is, for its record. */
interface Kind {
  kind: 'code' | 'notice';
  language: Language;
  code?: CodeToSend;
  /** a re-send: only the providers after this one */
  after?: { channel: Channel; provider: string };
}

/** Every provider a message was offered to failed. */
export class MessagingFailed extends Error {}

/** What carried a message: the channel, the provider by its configured name, and the vendor's id for it. */
export interface Carried {
  channel: Channel;
  provider: string;
  providerMessageId?: string;
}

/** No route and no fallback carries this channel to the number. */
const noRoute = (requested: Channel) =>
  fieldError('INVALID_REQUEST', 'channel', `codes cannot be sent to this number by ${requested}`, {
    reason: 'no_route',
  });

export class Messenger {
  constructor(private readonly d: MessengerDeps) {}

  /** The channel and provider pairs to try for this number, the requested channel's first. */
  #attempts(to: string, requested: Channel): Array<[Channel, MessagingProvider]> {
    const country = countryOf(to);
    const route = this.d.plan.routes.find(
      (r) => r.countries.includes('*') || (country !== undefined && r.countries.includes(country)),
    );
    const attempts: Array<[Channel, MessagingProvider]> = [];
    const tried = new Set<Channel>();
    for (let channel: Channel | undefined = requested; channel && !tried.has(channel); ) {
      tried.add(channel);
      for (const name of route?.channels[channel] ?? []) {
        const provider = this.d.plan.providers.get(name);
        if (provider) attempts.push([channel, provider]);
      }
      channel = this.d.plan.fallback[channel];
    }
    return attempts;
  }

  /** The channel a code to this number would go by first; INVALID_REQUEST when no channel can carry it. */
  channelFor(to: string, requested: Channel): Channel {
    const first = this.#attempts(to, requested)[0];
    if (!first) throw noRoute(requested);
    return first[0];
  }

  /** Sends the code by the requested channel or its fallbacks; throws MessagingFailed when none carried it. */
  sendCode(
    to: string,
    requested: Channel,
    code: CodeToSend,
    opts: { language?: Language; after?: Kind['after'] } = {},
  ): Promise<Carried> {
    const language = opts.language ?? 'en';
    const text = codeText(code.value, this.d.texts, language);
    const build = (channel: Channel) => ({
      to,
      channel,
      code: code.value,
      language,
      text: channel === 'voice' ? spokenIntro(language) : text,
    });
    return this.#deliver(to, requested, build, { kind: 'code', code, after: opts.after, language });
  }

  /** Sends a notice (written in the language) by SMS; throws MessagingFailed when no provider carried it. */
  async sendNotice(to: string, text: string, language: Language = 'en'): Promise<void> {
    await this.#deliver(to, 'sms', (channel) => ({ to, channel, text, language }), {
      kind: 'notice',
      language,
    });
  }

  /** Whether a re-send of a code that `after` carried has a provider left to go by. */
  canResend(to: string, after: NonNullable<Kind['after']>): boolean {
    return afterCarrier(this.#attempts(to, after.channel), after).length > 0;
  }

  /** The pairs to try: those not set aside (all of them when every one is), after `after` for a re-send. */
  #toTry(to: string, requested: Channel, after: Kind['after']): Array<[Channel, MessagingProvider]> {
    const attempts = this.#attempts(to, requested);
    if (!attempts.length) throw noRoute(requested);
    const all = after ? afterCarrier(attempts, after) : attempts;
    const usable = all.filter(([, p]) => this.d.health.usable(p.name));
    return usable.length ? usable : all;
  }

  async #deliver(to: string, requested: Channel, build: (c: Channel) => OutgoingMessage, kind: Kind) {
    const attempts: MessageAttempt[] = [];
    const record = (channel: Channel, provider: string | null, sent: SentMessage = {}) =>
      this.d.log.record({
        to,
        kind: kind.kind,
        channel,
        language: kind.language,
        provider,
        providerMessageId: sent.providerMessageId,
        attempts,
        code: kind.code,
        // The vendor's own price where its answer says, else the price table's.
        price:
          sent.price ?? (provider ? (this.d.plan.prices.get(provider)?.[countryOf(to) ?? ''] ?? null) : null),
        isResend: kind.after !== undefined,
      });
    const toTry = this.#toTry(to, requested, kind.after);
    for (const [channel, provider] of toTry) {
      const started = performance.now();
      let sent: SentMessage;
      try {
        sent = await provider.send(build(channel));
      } catch (err) {
        const error = (err as Error).message;
        attempts.push({
          provider: provider.name,
          channel,
          ok: false,
          error,
          ms: Math.round(performance.now() - started),
        });
        const failure = err instanceof ProviderError ? err.failure : 'unavailable';
        const pause = err instanceof ProviderError ? err.retryAfterSeconds : undefined;
        this.#failed(to, channel, provider.name, error, failure, pause);
        continue;
      }
      // Carried: whatever befalls the record (the database gone), no other provider sends it again.
      attempts.push({
        provider: provider.name,
        channel,
        ok: true,
        ms: Math.round(performance.now() - started),
      });
      this.d.health.succeeded(provider.name);
      this.d.messages?.inc({ channel, provider: provider.name, outcome: 'accepted' });
      await record(channel, provider.name, sent);
      return { channel, provider: provider.name, providerMessageId: sent.providerMessageId };
    }
    const last = toTry.at(-1);
    await record(last?.[0] ?? requested, last?.[1].name ?? null);
    throw new MessagingFailed(`no provider carried the message (${toTry.length} tried)`);
  }

  #failed(
    to: string,
    channel: Channel,
    provider: string,
    error: string,
    failure: ProviderFailure,
    pause?: number,
  ) {
    const setAside = this.d.health.failed(provider, failure, pause);
    this.d.messages?.inc({ channel, provider, outcome: 'failed' });
    this.d.logger.warn(
      { provider, channel, to: maskPhone(to), err: error, failure, setAside },
      setAside ? 'message provider failed, set aside for a while' : 'message provider failed',
    );
  }
}

/** A re-send's pairs: those after the one that carried the code, never by that provider again. */
function afterCarrier(
  attempts: Array<[Channel, MessagingProvider]>,
  after: NonNullable<Kind['after']>,
): Array<[Channel, MessagingProvider]> {
  const carrier = attempts.findIndex(([c, p]) => c === after.channel && p.name === after.provider);
  return attempts.slice(carrier + 1).filter(([, p]) => p.name !== after.provider);
}
