import type { AdminClientSettings } from '../config/admin-client-settings.ts';
import { fetchAdmin } from './admin-http.ts';

/** The operators' trail as the list shows it. */
export const ACTION_COLUMNS = [
  'id',
  'at',
  'source',
  'address',
  'method',
  'route',
  'params',
  'status',
  'request_id',
];

// `callsign actions export`: the whole operators' trail as JSON Lines, oldest first, for an archive or a SIEM.

export async function exportActions(config: AdminClientSettings): Promise<string> {
  const answer = await fetchAdmin(config, 'GET', '/actions?format=jsonl');
  return (await answer.text()).replace(/\n$/, '');
}
