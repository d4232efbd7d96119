import { parseArgs } from 'node:util';
import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import { call, type Json } from './admin-http.ts';

// `callsign clients rotate-secret CLIENT_ID [--grace SECONDS]`: a confidential client's new secret, shown once;
// the old one keeps working for the grace (none by default: it stops at once).

export async function rotateClientSecret(
  config: AdminClientSettings,
  clientId: string,
  grace: string | undefined,
) {
  const graceSeconds = grace === undefined ? 0 : Number(grace);
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0) throw new Error('--grace must be whole seconds');
  const rolled = (await call(config, 'POST', `/clients/${encodeURIComponent(clientId)}/secret`, {
    grace_seconds: graceSeconds,
  })) as Json;
  const old = rolled.previous_secret_expires_at
    ? `the old secret works until ${rolled.previous_secret_expires_at}`
    : 'the old secret stopped working';
  return { json: rolled, text: `client_secret: ${rolled.client_secret}   (shown once: keep it now)\n${old}` };
}

/**
 * `callsign clients initial-token [--expires-in SECONDS] [--uses N] [--json]`: an initial access token, by
 * which clients register themselves at POST /oauth/register (RFC 7591); shown once.
 */
export async function initialTokenCommand(config: AdminClientSettings, args: string[]): Promise<string> {
  const { values: o } = parseArgs({
    args,
    options: { 'expires-in': { type: 'string' }, uses: { type: 'string' }, json: { type: 'boolean' } },
    allowPositionals: true,
  });
  const whole = (value: string | undefined, flag: string) => {
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value)) throw new Error(`${flag} must be a whole number`);
    return Number(value);
  };
  const made = (await call(config, 'POST', '/initial-access-tokens', {
    ...(o['expires-in'] ? { expires_in: whole(o['expires-in'], '--expires-in') } : {}),
    ...(o.uses ? { uses: whole(o.uses, '--uses') } : {}),
  })) as Json;
  if (o.json) return JSON.stringify(made, null, 2);
  return `initial access token: ${made.token}   (shown once: give it to the client's developer now)\nregisters ${made.uses} client(s) until ${made.expires_at}`;
}
