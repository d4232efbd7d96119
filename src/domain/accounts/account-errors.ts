import type { Queryable } from '../../storage/db.ts';
import { usersRepo } from '../../storage/repositories/users.ts';
import { DomainError, invalidCredentials, noSuchUser } from '../errors.ts';

/**
 * Why a statement that acts on a PIN check (`pin_version = $n`) wrote nothing: the account is gone, or its
 * PIN was set again since the check, so the PIN given is not the account's any more.
 */
export async function pinCheckRefusal(q: Queryable, userId: string): Promise<DomainError> {
  return (await usersRepo.findLiveById(q, userId)) ? invalidCredentials() : noSuchUser();
}

export const handleTaken = () =>
  new DomainError('HANDLE_TAKEN', 'this handle is already in use', { field: 'handle' });
export const lockedByOperator = () =>
  new DomainError('ACCOUNT_LOCKED', 'this account is locked; contact support', { locked_until: null });
export const accountLocked = (until: Date | null) =>
  new DomainError(
    'ACCOUNT_LOCKED',
    'too many wrong PINs; the account is locked for a while, or reset the PIN',
    {
      locked_until: until?.toISOString() ?? null,
    },
  );
