import type { Database } from '../../storage/db.ts';
import {
  ENCRYPTED_COLUMNS,
  type EncryptedPlace,
  encryptedColumnsRepo,
} from '../../storage/repositories/encrypted-columns.ts';
import type { PurposeKeys } from '../purpose-keys.ts';

/** Rows looked at per statement; a KYC photo's envelope holds up to some 13 MB. */
const PAGE = 100;

export interface ResealCount {
  /** rows of which something was sealed with the fallback and now is with the current key */
  resealed: number;
  /** rows of which something neither key opens: left as they are */
  unreadable: number;
}

/**
 * Seals again with the current KEY_ENCRYPTION_KEY everything stored sealed with the fallback, so that the
 * fallback can go. Row by row, each locked while it is rewritten: a webhook secret rolled meanwhile is not
 * overwritten with the one before. Safe to run again, and beside serving instances.
 */
export class KeyReencryption {
  constructor(private readonly d: { db: Database; keys: Record<EncryptedPlace, PurposeKeys> }) {}

  async run(): Promise<Record<EncryptedPlace, ResealCount>> {
    const counts = {} as Record<EncryptedPlace, ResealCount>;
    for (const place of Object.keys(ENCRYPTED_COLUMNS) as EncryptedPlace[])
      counts[place] = await this.resealAll(place);
    return counts;
  }

  private async resealAll(place: EncryptedPlace): Promise<ResealCount> {
    const count = { resealed: 0, unreadable: 0 };
    let after: string | undefined;
    for (;;) {
      const rowKeys = await encryptedColumnsRepo.keysAfter(this.d.db, place, after, PAGE);
      for (const rowKey of rowKeys) {
        const outcome = await this.resealRow(place, rowKey);
        if (outcome.resealed) count.resealed++;
        if (outcome.unreadable) count.unreadable++;
      }
      if (rowKeys.length < PAGE) return count;
      after = rowKeys.at(-1);
    }
  }

  private resealRow(place: EncryptedPlace, rowKey: string) {
    const keys = this.d.keys[place];
    return this.d.db.transaction(async (tx) => {
      const values = (await encryptedColumnsRepo.lockedValues(tx, place, rowKey)) ?? [];
      let unreadable = false;
      const next = values.map((v) => {
        if (v === null) return null;
        try {
          return keys.reseal(v) ?? v;
        } catch {
          unreadable = true;
          return v;
        }
      });
      const resealed = next.some((v, i) => v !== values[i]);
      if (resealed) await encryptedColumnsRepo.write(tx, place, rowKey, next);
      return { resealed, unreadable };
    });
  }
}
