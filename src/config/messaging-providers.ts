// The providers of MESSAGING_CONFIG: each type's fields, checked by a schema of its own, and the channels it
// can carry.
import { type TSchema, Type } from 'typebox';
import type { Channel } from './channels.ts';

const url = () => Type.Optional(Type.String({ pattern: '^https?://' }));
const text = () => Type.String({ minLength: 1 });
/** What a message costs in each country (ISO 3166-1 alpha-2), in the operator's currency, for the records. */
const price = Type.Optional(Type.Record(Type.String({ pattern: '^[A-Z]{2}$' }), Type.Number({ minimum: 0 })));
const closed = { additionalProperties: false } as const;

export const PROVIDER_SCHEMAS = {
  twilio: Type.Object(
    {
      type: Type.Literal('twilio'),
      account_sid: text(),
      auth_token: text(),
      from: text(),
      whatsapp_content_sid: Type.Optional(text()),
      whatsapp_from: Type.Optional(text()),
      voice_from: Type.Optional(text()),
      api_url: url(),
      price,
    },
    closed,
  ),
  whatsapp_cloud: Type.Object(
    {
      type: Type.Literal('whatsapp_cloud'),
      phone_number_id: text(),
      access_token: text(),
      template: text(),
      language: Type.Optional(text()),
      languages: Type.Optional(Type.Record(Type.String(), text())),
      /** the app's secret, which signs the status webhooks */
      app_secret: Type.Optional(text()),
      /** the token Meta's check of the webhook address must present */
      verify_token: Type.Optional(text()),
      /** the WhatsApp Business Account: the authentication template is created there when it is missing */
      business_account_id: Type.Optional(text()),
      /** the template's button: copy_code (the default), or one_tap and zero_tap for ANDROID_APPS */
      otp_type: Type.Optional(Type.Enum(['copy_code', 'one_tap', 'zero_tap'])),
      api_url: url(),
      price,
    },
    closed,
  ),
  vonage: Type.Object(
    {
      type: Type.Literal('vonage'),
      api_key: text(),
      api_secret: text(),
      from: text(),
      /** the secret that signs delivery receipts, and how */
      signature_secret: Type.Optional(text()),
      signature_method: Type.Optional(Type.Enum(['md5hash', 'md5', 'sha1', 'sha256', 'sha512'])),
      api_url: url(),
      price,
    },
    closed,
  ),
  msg91: Type.Object(
    {
      type: Type.Literal('msg91'),
      auth_key: text(),
      template_id: text(),
      api_url: url(),
      price,
    },
    closed,
  ),
  termii: Type.Object(
    {
      type: Type.Literal('termii'),
      api_key: text(),
      from: text(),
      route: Type.Optional(Type.Enum(['dnd', 'generic'])),
      api_url: url(),
      price,
    },
    closed,
  ),
  http: Type.Object(
    { type: Type.Literal('http'), url: Type.String({ pattern: '^https?://' }), price },
    closed,
  ),
  console: Type.Object({ type: Type.Literal('console') }, closed),
} satisfies Record<string, TSchema>;

export type ProviderType = keyof typeof PROVIDER_SCHEMAS;
export const PROVIDER_TYPES = Object.keys(PROVIDER_SCHEMAS) as ProviderType[];

/** A provider as configured: its name, its type's fields (secrets already put in from the environment). */
export type ProviderConfig = { name: string; type: ProviderType } & Record<string, unknown>;

/** The channels a provider of this configuration can carry. */
export function channelsOf(p: ProviderConfig): Channel[] {
  switch (p.type) {
    case 'twilio':
      return p.whatsapp_content_sid ? ['sms', 'whatsapp', 'voice'] : ['sms', 'voice'];
    case 'whatsapp_cloud':
      return ['whatsapp'];
    case 'http':
    case 'console':
      return ['sms', 'whatsapp', 'voice'];
    default:
      return ['sms'];
  }
}
