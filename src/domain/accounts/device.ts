import { isIPv4, isIPv6 } from 'node:net';
import { fieldError } from '../errors.ts';

export const PLATFORMS = ['ios', 'android', 'web', 'desktop', 'other'] as const;
export type Platform = (typeof PLATFORMS)[number];

export interface Device {
  name: string | null;
  platform: Platform;
}

/** Optional `device: {name, platform}`; platform defaults to `other`. */
export function parseDevice(input: unknown): Device {
  if (input === undefined || input === null) return { name: null, platform: 'other' };
  if (typeof input !== 'object' || Array.isArray(input))
    throw fieldError('INVALID_REQUEST', 'device', 'device must be an object');
  const { name, platform } = input as Record<string, unknown>;
  if (name !== undefined && name !== null && (typeof name !== 'string' || name.length > 100)) {
    throw fieldError(
      'INVALID_REQUEST',
      'device.name',
      'device.name must be a string of at most 100 characters',
    );
  }
  if (platform !== undefined && !PLATFORMS.includes(platform as Platform)) {
    throw fieldError(
      'INVALID_REQUEST',
      'device.platform',
      `device.platform must be one of ${PLATFORMS.join(', ')}`,
    );
  }
  return {
    name: (name as string | undefined)?.trim() || null,
    platform: (platform as Platform | undefined) ?? 'other',
  };
}

/** IPv4 keeps three octets (203.0.113.*), IPv6 its first 48 bits (2001:db8:85a3:*). */
export function maskIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return maskIp(mapped[1]);
  if (isIPv4(ip)) return `${ip.split('.').slice(0, 3).join('.')}.*`;
  if (isIPv6(ip))
    return `${expandIPv6(ip)
      .slice(0, 3)
      .map((h) => h.replace(/^0+(?=.)/, ''))
      .join(':')}:*`;
  return '*';
}

function expandIPv6(ip: string): string[] {
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = ip.includes('::') ? Array(8 - h.length - t.length).fill('0') : [];
  return [...h, ...fill, ...t];
}
