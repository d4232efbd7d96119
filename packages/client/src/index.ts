// @callsign/client: Callsign's API for web and React Native apps. One client per Callsign service; sessions
// kept in the given storage (localStorage in a browser, memory elsewhere), shared by a browser's tabs.
import { accountMethods, userMethods } from './account.js';
import type { Device } from './api-types.js';
import { authMethods, sessionMethods } from './auth.js';
import { Authorizer } from './authorizer.js';
import { challengeMethods } from './challenges.js';
import { networkMethods } from './network.js';
import type { SignOutReason } from './session.js';
import { SessionKeeper } from './session-keeper.js';
import { browserStorage, memoryStorage, type SessionStorage } from './storage.js';
import { browserTabLink, soloLink } from './tab-link.js';
import { type Fetch, Transport } from './transport.js';

export interface ClientOptions {
  /** where Callsign serves, e.g. https://auth.example.com */
  baseUrl: string;
  /** where the session is kept; localStorage in a browser, memory elsewhere */
  storage?: SessionStorage;
  /** the fetch to call with; the global one by default */
  fetch?: Fetch;
  /** the device the sessions are on, as the user's session list shows it */
  device?: Device;
  /** called when the session ends, with why (also when another tab ended it) */
  onSessionEnd?: (reason: SignOutReason) => void;
}

export function createClient(options: ClientOptions) {
  const fetchImpl: Fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const transport = new Transport(options.baseUrl, fetchImpl);
  const local = browserStorage();
  const storage = options.storage ?? local ?? memoryStorage();
  const key = `callsign:${transport.baseUrl}:session`;
  // Tabs share a session only through the browser's own localStorage.
  const tabs = local && storage === local ? browserTabLink(local, key) : soloLink();
  const keeper = new SessionKeeper(storage, key, tabs, options.onSessionEnd);
  const authorizer = new Authorizer(transport, keeper, tabs);
  return {
    auth: {
      ...authMethods(transport, keeper, options.device),
      ...sessionMethods(transport, keeper, authorizer),
      ...networkMethods(transport),
    },
    users: userMethods(transport, keeper, authorizer),
    ...accountMethods(authorizer),
    challenges: challengeMethods(transport),
    /** Stops listening to the other tabs (a client made for a while, e.g. in a test). */
    close: () => tabs.close(),
  };
}

export type CallsignClient = ReturnType<typeof createClient>;

export type * from './api-types.js';
export type { Attestation, ResetPinInput, SendCodeInput, SentCode } from './auth.js';
export { attestationBinding } from './auth.js';
export type { ProofOfWork } from './challenges.js';
export { CallsignError, type CallsignErrorCode, CallsignNetworkError } from './errors.js';
export type { NetworkCompletion, NetworkStart } from './network.js';
export type { Session, SessionEvent, SessionListener, SignOutReason } from './session.js';
export { memoryStorage, type SessionStorage } from './storage.js';
export type { Fetch } from './transport.js';
