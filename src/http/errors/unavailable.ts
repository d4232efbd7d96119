import { DomainError } from '../../domain/errors.ts';
import { isDatabaseUnavailable } from '../../storage/database-errors.ts';

// A request the service cannot serve for now because its database cannot take it (a failover, a restart, a
// pooler going away) is answered 503 with Retry-After on every surface, never 500: the client tries again.

/** How long a client is asked to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** SERVICE_UNAVAILABLE for an error of an unavailable database; undefined for any other. */
export function unavailableOf(err: unknown): DomainError | undefined {
  if (!isDatabaseUnavailable(err)) return undefined;
  return new DomainError(
    'SERVICE_UNAVAILABLE',
    'the service cannot reach its database just now; try again shortly',
    {
      retry_after_seconds: DATABASE_RETRY_AFTER_SECONDS,
    },
  );
}
