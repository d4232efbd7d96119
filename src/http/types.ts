import type { RateLimitName } from '../config/rate-limits.ts';

export interface AuthContext {
  userId: string;
  sessionId: string;
  clientId: string;
  scope: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route needs a bearer access token */
    auth?: boolean;
    /** the limits this route counts against; without it, the "all other REST endpoints" limit */
    rateLimit?: (request: FastifyRequest) => Array<[RateLimitName, string]>;
    /** answer even when the counter store is down (only /health, which reports that very state) */
    rateLimitOptional?: boolean;
    /** the route refuses U+0000 in its own way; without it, the NUL guard answers for it */
    ownNulCheck?: boolean;
  }
  interface FastifyRequest {
    auth?: AuthContext;
  }
}
