// @callsign/client/server: for an app's backend. Checks the access tokens its app sends, the webhooks and the
// security event tokens Callsign delivers, and reads users with a server API key.
import type { ServerUser, ServerUserMatch } from './api-types.js';
import { type Fetch, Transport } from './transport.js';

export { type AccessTokenClaims, type VerifyOptions, verifyAccessToken } from './access-tokens.js';
export { CallsignError, type CallsignErrorCode, CallsignNetworkError } from './errors.js';
export {
  type SecurityEvent,
  type SecurityEventOptions,
  type SecuritySubject,
  verifySecurityEvent,
} from './security-events.js';
export {
  verifyWebhook,
  type WebhookEvent,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.js';

export interface ServerClientOptions {
  /** where Callsign serves */
  baseUrl: string;
  /** a server API key (the console's API keys page); keep it on the server */
  apiKey: string;
  fetch?: Fetch;
}

export function createServerClient(options: ServerClientOptions) {
  const fetchImpl: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const transport = new Transport(options.baseUrl, fetchImpl);
  const token = options.apiKey;
  return {
    users: {
      /** A user by id; a CallsignError `not_found` when there is none. */
      get: (id: string): Promise<ServerUser> =>
        transport.call('get', '/api/v1/users/{id}', { params: { id }, token }),
      /** The live account of a phone number (E.164), or null. */
      async findByPhone(phone: string): Promise<ServerUserMatch | null> {
        const found = await transport.call('get', '/api/v1/users', { query: { phone, limit: 1 }, token });
        return found.data[0] ?? null;
      },
    },
  };
}

export type ServerClient = ReturnType<typeof createServerClient>;
export type { ServerUser, ServerUserMatch } from './api-types.js';
