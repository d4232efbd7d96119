// The channels a code or a notice can go by: what the messaging configuration names and the providers carry.
export const CHANNELS = ['sms', 'whatsapp', 'voice'] as const;
export type Channel = (typeof CHANNELS)[number];
