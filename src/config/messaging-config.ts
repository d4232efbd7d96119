// MESSAGING_CONFIG: the providers codes go by, the routes that pick them per country and channel, and the
// channel to fall back to. Read once at start; every bad field is named.
import { readFileSync } from 'node:fs';
import { type Static, type TSchema, Type } from 'typebox';
import { Value } from 'typebox/value';
import { CHANNELS, type Channel } from './channels.ts';
import type { Env, EnvReader } from './env-reader.ts';
import { channelsOf, PROVIDER_SCHEMAS, PROVIDER_TYPES, type ProviderConfig } from './messaging-providers.ts';
import { isDestinationKey } from './sms-defence-settings.ts';

/** One route: the countries it serves (or `*`), and per channel the providers to try, in order. */
export interface MessagingRoute {
  countries: readonly string[];
  channels: Partial<Record<Channel, readonly string[]>>;
}

export interface MessagingSettings {
  providers: ProviderConfig[];
  routes: MessagingRoute[];
  /** the channel to try when a channel has no route, or all of its providers failed */
  fallback: Partial<Record<Channel, Channel>>;
}

const channelList = Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }));
const FileSchema = Type.Object(
  {
    providers: Type.Record(
      Type.String({ pattern: '^[A-Za-z0-9_-]{1,40}$' }),
      Type.Object({ type: Type.String() }),
    ),
    routes: Type.Array(
      Type.Object(
        {
          countries: Type.Array(Type.String(), { minItems: 1 }),
          sms: channelList,
          whatsapp: channelList,
          voice: channelList,
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    fallback: Type.Optional(
      Type.Object(
        {
          sms: Type.Optional(Type.Enum(CHANNELS)),
          whatsapp: Type.Optional(Type.Enum(CHANNELS)),
          voice: Type.Optional(Type.Enum(CHANNELS)),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The schema's complaints, each as `path: message` (the path dotted, as the file's reader thinks of it). */
function complaints(schema: TSchema, value: unknown, at: string): string[] {
  return Value.Errors(schema, value)
    .filter((e) => e.keyword !== 'boolean')
    .map((e) => {
      const path = `${at}${e.instancePath.replaceAll('/', '.')}`;
      const extra = 'additionalProperties' in e.params ? ` (${String(e.params.additionalProperties)})` : '';
      return `${path}: ${e.message}${extra}`;
    });
}

/** Puts each `${VAR}` of every string in the environment's value; names each variable that is not set. */
function substitute(
  value: unknown,
  env: Record<string, string | undefined>,
  path: string,
  problems: string[],
): unknown {
  if (typeof value === 'string')
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => {
      const v = env[name];
      if (v === undefined || v === '') problems.push(`${path}: \${${name}} is not set in the environment`);
      return v ?? '';
    });
  if (Array.isArray(value)) return value.map((v, i) => substitute(v, env, `${path}.${i}`, problems));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, substitute(v, env, path ? `${path}.${k}` : k, problems)]),
    );
  return value;
}

/** The file at `path`, read and checked; its problems go to `problems`, each prefixed with the variable. */
export function loadMessagingConfig(
  path: string,
  env: Record<string, string | undefined>,
  problems: string[],
): MessagingSettings | undefined {
  const found: string[] = [];
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    problems.push(`MESSAGING_CONFIG: ${path} could not be read as JSON (${(err as Error).message})`);
    return undefined;
  }
  const file = substitute(raw, env, '', found);
  found.push(...complaints(FileSchema, file, ''));
  if (found.length) {
    problems.push(...found.map((p) => `MESSAGING_CONFIG: ${p}`));
    return undefined;
  }
  const checked = checkedSettings(file as Static<typeof FileSchema>, found);
  problems.push(...found.map((p) => `MESSAGING_CONFIG: ${p}`));
  return found.length ? undefined : checked;
}

/** The file's providers, routes and fallback, with what a schema cannot see checked: names, countries, channels. */
function checkedSettings(file: Static<typeof FileSchema>, found: string[]): MessagingSettings {
  const providers: ProviderConfig[] = [];
  for (const [name, p] of Object.entries(file.providers)) {
    const type = PROVIDER_TYPES.find((t) => t === p.type);
    if (!type) {
      found.push(`providers.${name}.type: "${p.type}" is not one of ${PROVIDER_TYPES.join(', ')}`);
      continue;
    }
    const before = found.length;
    found.push(...complaints(PROVIDER_SCHEMAS[type], p, `providers.${name}`));
    if (found.length === before) providers.push({ ...p, name, type });
  }
  const routes = file.routes.map((route, i) => {
    for (const country of route.countries)
      if (country !== '*' && !isDestinationKey(country))
        found.push(`routes.${i}.countries: "${country}" is not an ISO 3166-1 alpha-2 code, 001 or *`);
    const channels: MessagingRoute['channels'] = {};
    for (const channel of CHANNELS) {
      for (const name of route[channel] ?? []) {
        const provider = providers.find((p) => p.name === name);
        if (!provider && !(name in file.providers))
          found.push(`routes.${i}.${channel}: no provider is named "${name}"`);
        else if (provider && !channelsOf(provider).includes(channel))
          found.push(`routes.${i}.${channel}: provider "${name}" (${provider.type}) cannot carry ${channel}`);
      }
      if (route[channel]) channels[channel] = route[channel];
    }
    return { countries: route.countries, channels };
  });
  const fallback = file.fallback ?? {};
  for (const [from, to] of Object.entries(fallback))
    if (from === to) found.push(`fallback.${from}: a channel cannot fall back to itself`);
  return { providers, routes, fallback };
}

/** Every channel falls back to SMS when only SMS_PROVIDER is set (one provider, SMS, every country). */
const SMS_ONLY_FALLBACK = { whatsapp: 'sms', voice: 'sms' } as const;

export type SmsProviderName = 'console' | 'http' | 'twilio';

/** How codes and notices are sent, as the configuration says. */
export interface SmsSettings {
  smsProvider: SmsProviderName;
  smsHttpUrl: string | undefined;
  twilio: { accountSid: string; authToken: string; from: string; apiUrl: string } | undefined;
  /** the providers, routes and fallbacks of MESSAGING_CONFIG, or SMS_PROVIDER as one provider for SMS */
  messaging: MessagingSettings;
  /** whether the messaging came from MESSAGING_CONFIG */
  messagingConfigured: boolean;
  /** SMS_APP_HASH: Android's SMS Retriever hash, put in each code's text */
  smsAppHash: string | undefined;
}

/** MESSAGING_CONFIG, or SMS_PROVIDER and what it needs as its one provider; not both. */
export function smsSettings(r: EnvReader, env: Env): SmsSettings {
  const smsAppHash = r.str('SMS_APP_HASH');
  if (smsAppHash && !/^[A-Za-z0-9+/]{11}$/.test(smsAppHash))
    r.problems.push('SMS_APP_HASH must be the 11-character hash of the Android SMS Retriever');
  const path = r.str('MESSAGING_CONFIG');
  if (path) {
    if (r.str('SMS_PROVIDER'))
      r.problems.push(
        'MESSAGING_CONFIG and SMS_PROVIDER are both set: keep one (MESSAGING_CONFIG names every provider)',
      );
    const messaging = loadMessagingConfig(path, env, r.problems) ?? {
      providers: [],
      routes: [],
      fallback: {},
    };
    return {
      smsProvider: 'console',
      smsHttpUrl: undefined,
      twilio: undefined,
      messaging,
      messagingConfigured: true,
      smsAppHash,
    };
  }
  const smsProvider = r.oneOf<SmsProviderName>('SMS_PROVIDER', ['console', 'http', 'twilio'], 'console');
  const smsHttpUrl = r.str('SMS_HTTP_URL');
  if (smsProvider === 'http' && !smsHttpUrl)
    r.problems.push('SMS_HTTP_URL is required when SMS_PROVIDER=http');
  let twilio: SmsSettings['twilio'];
  if (smsProvider === 'twilio') {
    const required = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;
    for (const name of required)
      if (!r.str(name)) r.problems.push(`${name} is required when SMS_PROVIDER=twilio`);
    const [accountSid, authToken, from] = required.map((name) => r.str(name) ?? '');
    twilio = { accountSid, authToken, from, apiUrl: r.url('TWILIO_API_URL', 'https://api.twilio.com') };
  }
  const provider: ProviderConfig =
    smsProvider === 'http'
      ? { name: 'http', type: 'http', url: smsHttpUrl ?? '' }
      : smsProvider === 'twilio' && twilio
        ? {
            name: 'twilio',
            type: 'twilio',
            account_sid: twilio.accountSid,
            auth_token: twilio.authToken,
            from: twilio.from,
            api_url: twilio.apiUrl,
          }
        : { name: 'console', type: 'console' };
  const messaging = {
    providers: [provider],
    routes: [{ countries: ['*'], channels: { sms: [provider.name] } }],
    fallback: SMS_ONLY_FALLBACK,
  };
  return { smsProvider, smsHttpUrl, twilio, messaging, messagingConfigured: false, smsAppHash };
}

/** The channels some route offers, SMS first: what a page may let a person choose from. */
export function offeredChannels(settings: MessagingSettings): Channel[] {
  return CHANNELS.filter((channel) => settings.routes.some((route) => route.channels[channel]?.length));
}
