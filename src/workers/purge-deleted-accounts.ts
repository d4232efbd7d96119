import { HARD_DELETE_AFTER_SECONDS } from '../domain/accounts/account-deletion.ts';
import { addSeconds } from '../providers/clock.ts';
import type { Database } from '../storage/db.ts';
import { usersRepo } from '../storage/repositories/users.ts';
import type { Job } from './runner.ts';

/**
 * 30 days after deletion the account's rows go: the user, its sessions and refresh tokens (cascade),
 * and the one-time codes and temp_tokens of its phone from before the deletion (the phone may since belong
 * to a new account, whose codes stay). Outbox events already written stay deliverable.
 */
export function purgeDeletedAccounts(db: Database): Job {
  return {
    name: 'purge-deleted-accounts',
    everySeconds: 3600,
    run: (now) =>
      db.transaction(async (tx) => {
        const purged = await usersRepo.purgeDeletedBefore(tx, addSeconds(now, -HARD_DELETE_AFTER_SECONDS));
        for (const u of purged) {
          await tx.query('DELETE FROM otps WHERE phone = $1 AND created_at <= $2', [u.phone, u.deleted_at]);
          await tx.query('DELETE FROM temp_tokens WHERE phone = $1 AND created_at <= $2', [
            u.phone,
            u.deleted_at,
          ]);
        }
        return { purged: purged.length };
      }),
  };
}
