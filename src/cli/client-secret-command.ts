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
