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

/**
 * A PIN given for an account that has no PIN yet (an imported one, until its person sets one through the PIN
 * reset): refused as a wrong PIN is, and said why only where the service does not hide which numbers have
 * accounts.
 */
export const pinNotSet = (enumerationProtection: boolean) =>
  enumerationProtection
    ? invalidCredentials()
    : new DomainError(
        'INVALID_CREDENTIALS',
        'this account has no PIN yet: set one with a code sent to its phone',
        {
          reason: 'pin_not_set',
        },
      );

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
