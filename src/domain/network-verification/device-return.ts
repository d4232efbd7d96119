// How a check is finished, once: where the device comes back to the callback (its state claims the check), and
// where it does not (the vendor is asked when the app completes, or the app brings what the device came back
// with). The claim is the storage rule's; a vendor with no answer yet gives the claim back, so the next
// completion asks again, until the network has had its time.
import type { Counter } from 'prom-client';
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type {
  NetworkAnswer,
  NetworkVerifier,
} from '../../providers/network-verification/network-verifier.ts';
import type { Database } from '../../storage/db.ts';
import {
  type NetworkVerificationRow,
  networkVerificationsRepo,
} from '../../storage/repositories/network-verifications.ts';
import { claimById, releaseClaim } from '../../storage/rules/network-verifications.ts';
import { countryOf } from '../phone.ts';
import type { PurposeKeys } from '../purpose-keys.ts';

/**
 * How long a check may wait for the device's return before it counts as the network not answering: the
 * provider's 6 s, and the device's own way there and back.
 */
export const NETWORK_RETURN_WAIT_SECONDS = 15;

export interface DeviceReturnDeps {
  db: Database;
  clock: Clock;
  /** where the device comes back: `/auth/network/callback` at the service's address */
  callbackUrl: string;
  /** seals what a check keeps between its start and the device's return */
  sealing: PurposeKeys;
  checks?: Counter<'provider' | 'country' | 'outcome'>;
}

/** What a check keeps, sealed, between its start and the device's return. */
export interface Kept {
  /** what the vendor needs on the return */
  vendor: object;
  /** where the device was sent back to: the token exchange names it again */
  callbackUrl: string;
  /** what the start carried for its caller (the hosted pages' state) */
  carry?: string;
}

export const sealKept = (d: Pick<DeviceReturnDeps, 'sealing'>, kept: Kept) =>
  d.sealing.seal(Buffer.from(JSON.stringify(kept)));

/**
 * What a check kept, opened. A check started before its callback was kept with it held the vendor's part alone
 * (CAMARA's, returning to the REST callback): it is read as such, so a check in flight across an upgrade ends.
 */
export function openKept(d: Pick<DeviceReturnDeps, 'sealing' | 'callbackUrl'>, sealed: string): Kept {
  const kept = JSON.parse(d.sealing.open(sealed).toString()) as Partial<Kept> & object;
  if (typeof kept.callbackUrl === 'string' && kept.vendor) return kept as Kept;
  return { vendor: kept, callbackUrl: d.callbackUrl };
}

/** Counts one check's outcome by its provider and the number's country. */
export function countCheck(
  d: Pick<DeviceReturnDeps, 'checks'>,
  provider: string,
  phone: string,
  outcome: string,
) {
  d.checks?.inc({ provider, country: countryOf(phone) ?? 'unknown', outcome });
}

/**
 * Asks the vendor about a claimed check with what the device came back with, and writes the outcome. A vendor
 * with no answer yet gives the claim back while the network still has time (no answer); after that its
 * silence is `unavailable`. Answers also what the check's start carried.
 */
export async function settleClaimed(
  d: DeviceReturnDeps,
  verifier: NetworkVerifier,
  row: NetworkVerificationRow,
  callback: Record<string, string>,
): Promise<{ answer?: NetworkAnswer; carry?: string }> {
  const kept = openKept(d, row.pending_enc);
  const answer = await verifier.finish(row.phone, kept.vendor, kept.callbackUrl, callback);
  const now = d.clock.now();
  if (answer.outcome === 'not_yet' && row.created_at > addSeconds(now, -NETWORK_RETURN_WAIT_SECONDS)) {
    await releaseClaim(d.db, row.id);
    return { carry: kept.carry };
  }
  const settled: NetworkAnswer =
    answer.outcome === 'not_yet' ? { outcome: 'unavailable', detail: 'no answer in time' } : answer;
  await networkVerificationsRepo.writeOutcome(d.db, row.id, settled.outcome, settled.detail ?? null);
  countCheck(d, row.provider, row.phone, settled.outcome);
  return { answer: settled, carry: kept.carry };
}

/**
 * At completion, where the device does not come back to Callsign (or the app brings what it came back with):
 * the check claimed by its id and the vendor asked, once.
 */
export async function askAtCompletion(
  d: DeviceReturnDeps,
  verifier: NetworkVerifier,
  id: string,
  callback: Record<string, string>,
): Promise<void> {
  const row = await claimById(d.db, id, d.clock.now());
  if (row) await settleClaimed(d, verifier, row, callback);
}
