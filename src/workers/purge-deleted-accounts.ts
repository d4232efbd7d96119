import { HARD_DELETE_AFTER_SECONDS } from '../domain/accounts/account-deletion.ts';
import { addSeconds } from '../providers/clock.ts';
import type { Database } from '../storage/db.ts';
import { usersRepo } from '../storage/repositories/users.ts';
import type { Job } from './runner.ts';

/** Accounts removed per transaction: each takes its sessions, codes and the rest with it. */
export const ACCOUNTS_PER_BATCH = 200;

/**
 * 30 days after deletion the account's rows go: the user, its sessions and refresh tokens (cascade),
 * and the one-time codes and temp_tokens of its phone from before the deletion (the phone may since belong
 * to a new account, whose codes stay). Outbox events already written stay deliverable. The accounts go a
 * batch per transaction, so no transaction holds many rows' locks.
 */
export function purgeDeletedAccounts(db: Database): Job<{ purged: number }> {
  return {
    name: 'purge-deleted-accounts',
    everySeconds: 3600,
    async run(now) {
      const cutoff = addSeconds(now, -HARD_DELETE_AFTER_SECONDS);
      let purged = 0;
      for (;;) {
        const batch = await db.transaction(async (tx) => {
          const gone = await usersRepo.purgeDeletedBefore(tx, cutoff, ACCOUNTS_PER_BATCH);
          if (gone.length === 0) return 0;
          await usersRepo.purgeCodesOfDeleted(tx, gone);
          return gone.length;
        });
        purged += batch;
        if (batch < ACCOUNTS_PER_BATCH) return { purged };
      }
    },
  };
}
