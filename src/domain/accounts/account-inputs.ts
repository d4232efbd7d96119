import { fieldError } from '../errors.ts';

// What the account services take from a surface, each field typed as its route's schema types it; the
// services check the formats the spec gives error codes for (phone, PIN, handle).

/** What a new account is made of: a verified phone's temp token, a PIN, a handle and perhaps a name. */
export interface NewAccountInput {
  temp_token: string;
  pin: string;
  handle: string;
  name?: string | null;
}

export const PLATFORMS = ['ios', 'android', 'web', 'desktop', 'other'] as const;
export type Platform = (typeof PLATFORMS)[number];

/** The device a REST session is opened on, as sent (its route's schema checks it). */
export interface DeviceInput {
  name?: string;
  platform?: Platform;
}

/** The device as a session records it: a name or none, and a platform (`other` when not said). */
export interface Device {
  name: string | null;
  platform: Platform;
}

export interface SignUpInput extends NewAccountInput {
  device?: DeviceInput;
}

export interface SignInInput {
  phone: string;
  pin: string;
  device?: DeviceInput;
}

export interface PinResetInput {
  temp_token: string;
  pin: string;
  device?: DeviceInput;
}

/** A display name is 1-100 characters. */
export function parseName(input: unknown): string | null {
  if (input === undefined || input === null) return null;
  const name = typeof input === 'string' ? input.trim() : '';
  if (name.length < 1 || name.length > 100)
    throw fieldError('INVALID_REQUEST', 'name', 'name must be 1-100 characters');
  return name;
}
