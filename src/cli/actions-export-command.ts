import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import { fetchAdmin } from './admin-http.ts';

// `callsign actions export`: the whole operators' trail as JSON Lines, oldest first, for an archive or a SIEM.

export async function exportActions(config: AdminClientSettings): Promise<string> {
  const answer = await fetchAdmin(config, 'GET', '/actions?format=jsonl');
  return (await answer.text()).replace(/\n$/, '');
}
