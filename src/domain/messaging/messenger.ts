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
import type { Logger } from 'pino';
import type { MessagingRoute } from '../../config/messaging-config.ts';
import type { Channel, MessagingProvider, OutgoingMessage } from '../../providers/messaging/provider.ts';
import { fieldError } from '../errors.ts';
import { maskPhone } from '../phone.ts';
import { countryOf } from '../sms-destinations.ts';
import type { ProviderHealth } from './provider-health.ts';
import { type CodeTextSettings, codeText, SPOKEN_INTRO } from './texts.ts';

export interface MessagingPlan {
  providers: ReadonlyMap<string, MessagingProvider>;
  routes: readonly MessagingRoute[];
  fallback: Partial<Record<Channel, Channel>>;
}

export interface MessengerDeps {
  plan: MessagingPlan;
  health: ProviderHealth;
  logger: Logger;
  texts: CodeTextSettings;
}

/** Every provider a message was offered to failed. */
export class MessagingFailed extends Error {}

/** What carried a message: the channel, the provider by its configured name, and the vendor's id for it. */
export interface Carried {
  channel: Channel;
  provider: string;
  providerMessageId?: string;
}

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
    if (!first)
      throw fieldError('INVALID_REQUEST', 'channel', `codes cannot be sent to this number by ${requested}`, {
        reason: 'no_route',
      });
    return first[0];
  }

  /** Sends the code by the requested channel or its fallbacks; throws MessagingFailed when none carried it. */
  sendCode(to: string, requested: Channel, code: string, language = 'en'): Promise<Carried> {
    const text = codeText(code, this.d.texts);
    return this.#deliver(to, requested, (channel) => ({
      to,
      channel,
      code,
      language,
      text: channel === 'voice' ? SPOKEN_INTRO : text,
    }));
  }

  /** Sends a notice by SMS; throws MessagingFailed when no provider carried it. */
  async sendNotice(to: string, text: string): Promise<void> {
    await this.#deliver(to, 'sms', (channel) => ({ to, channel, text, language: 'en' }));
  }

  async #deliver(to: string, requested: Channel, build: (c: Channel) => OutgoingMessage): Promise<Carried> {
    const all = this.#attempts(to, requested);
    if (!all.length) this.channelFor(to, requested);
    const usable = all.filter(([, p]) => this.d.health.usable(p.name));
    for (const [channel, provider] of usable.length ? usable : all) {
      try {
        const sent = await provider.send(build(channel));
        this.d.health.succeeded(provider.name);
        return { channel, provider: provider.name, ...sent };
      } catch (err) {
        const setAside = this.d.health.failed(provider.name);
        this.d.logger.warn(
          { provider: provider.name, channel, to: maskPhone(to), err: (err as Error).message, setAside },
          setAside ? 'message provider failed, set aside for a while' : 'message provider failed',
        );
      }
    }
    throw new MessagingFailed(`no provider carried the message (${all.length} tried)`);
  }
}
