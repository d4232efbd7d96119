import { DomainError, fieldError } from '../errors.ts';

// Names an integrator's UI or a support desk would be impersonated with. (The reserved "me" is already
// refused by the 3-character minimum.)
const RESERVED = new Set([
  'admin',
  'administrator',
  'root',
  'support',
  'api',
  'auth',
  'oauth',
  'login',
  'logout',
  'signin',
  'signup',
  'signout',
  'register',
  'help',
  'security',
  'settings',
  'system',
  'www',
  'mail',
  'email',
  'info',
  'staff',
  'team',
  'official',
  'callsign',
  'moderator',
  'owner',
  'billing',
  'account',
  'accounts',
  'user',
  'users',
  'null',
  'undefined',
  'anonymous',
  'console',
  'dashboard',
  'status',
  'kyc',
  'verify',
  'sessions',
]);

export type HandleProblem = 'invalid' | 'reserved';

export function handleProblem(handle: unknown): HandleProblem | null {
  if (typeof handle !== 'string' || !/^[a-z][a-z0-9_]{2,29}$/.test(handle)) return 'invalid';
  return RESERVED.has(handle) ? 'reserved' : null;
}

/** No silent lowercasing; the rule is stated in the message. */
export function assertAcceptableHandle(handle: unknown): asserts handle is string {
  const problem = handleProblem(handle);
  if (problem === 'invalid') {
    throw fieldError(
      'INVALID_HANDLE',
      'handle',
      'handle must be 3-30 characters of a-z, 0-9 and _, starting with a letter',
    );
  }
  if (problem === 'reserved')
    throw new DomainError('HANDLE_RESERVED', 'this handle is reserved', { field: 'handle' });
}
