// Which lines of an import become accounts, and with what id and handle: a phone a live account has, or a
// source id an account has, is skipped (so the same import run twice changes nothing), and so is the second
// line of the same phone or source id in one import.
import type { Random } from '../../providers/random.ts';
import type { ImportedUser } from '../../storage/repositories/imported-users.ts';
import { acceptableHandle, madeHandle } from './import-handles.ts';
import type { ImportCandidate } from './import-line.ts';

export interface NumberedCandidate {
  line: number;
  candidate: ImportCandidate;
}

export type SkipReason = 'phone_exists' | 'id_exists';

/** What the accounts there are already hold of the lines' values. */
export interface Taken {
  phones: Set<string>;
  externalIds: Set<string>;
  ids: Set<string>;
  handles: Set<string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A source id that is a UUID becomes the account's id too. */
export const idFromSource = (externalId: string | null) =>
  externalId !== null && UUID.test(externalId) ? externalId.toLowerCase() : null;

export interface Plan {
  writes: Array<{ line: number; user: ImportedUser }>;
  skipped: Array<{ line: number; reason: SkipReason }>;
}

export function planImport(lines: NumberedCandidate[], taken: Taken, d: { random: Random; now: Date }): Plan {
  const plan: Plan = { writes: [], skipped: [] };
  for (const { line, candidate: c } of lines) {
    const sourceId = idFromSource(c.externalId);
    if (taken.phones.has(c.phone)) plan.skipped.push({ line, reason: 'phone_exists' });
    else if (
      (c.externalId !== null && taken.externalIds.has(c.externalId)) ||
      (sourceId && taken.ids.has(sourceId))
    )
      plan.skipped.push({ line, reason: 'id_exists' });
    else {
      const own = acceptableHandle(c.handle);
      const handle = own && !taken.handles.has(own) ? own : madeHandle(c.name, d.random);
      const user: ImportedUser = {
        id: sourceId ?? d.random.uuid(),
        phone: c.phone,
        country: c.country,
        externalId: c.externalId,
        handle,
        handleFromImport: handle !== own,
        name: c.name,
        language: c.language,
        metadata: c.metadata,
        createdAt: c.createdAt ?? d.now,
        lockedAt: c.disabled ? d.now : null,
        now: d.now,
      };
      plan.writes.push({ line, user });
      // Later lines meet this one's values as taken.
      taken.phones.add(user.phone);
      if (user.externalId !== null) taken.externalIds.add(user.externalId);
      taken.ids.add(user.id);
      taken.handles.add(user.handle);
    }
  }
  return plan;
}
