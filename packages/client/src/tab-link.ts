// Browser tabs of one app share one session in localStorage. They take turns to refresh it (one refresh at a time
// across tabs: Web Locks where present, else a lease written in localStorage), and each tells the others when it
// changed the session (a BroadcastChannel where present, else the storage event the browser raises by itself).
import type { SignOutReason } from './session.js';

export interface TabLink {
  /** tells the other tabs that the stored session changed (and why, when it ended) */
  announce(reason?: SignOutReason): void;
  /** calls back when another tab changed the stored session */
  onAnnounce(listener: (reason?: SignOutReason) => void): void;
  /** runs `task` while no other tab runs its own */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  close(): void;
}

/** A client whose storage no other tab reads: nothing to share. */
export const soloLink = (): TabLink => ({
  announce() {},
  onAnnounce() {},
  exclusive: (task) => task(),
  close() {},
});

interface LockManagerLike {
  request<T>(name: string, task: () => Promise<T>): Promise<T>;
}

/** How long a tab's lease on the refresh lasts at most, should the tab close while it holds it. */
const LEASE_MS = 15_000;
/** How long a tab waits, after writing its lease, for a lease another tab wrote at the same moment to show. */
const SETTLE_MS = 30;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One at a time across tabs without Web Locks: a lease in localStorage, checked again after it settles. */
async function underLease<T>(storage: Storage, key: string, task: () => Promise<T>): Promise<T> {
  const mine = `${Math.random().toString(36).slice(2)}.${Date.now()}`;
  for (;;) {
    const [holder, until] = (storage.getItem(key) ?? '').split(' ');
    if (!holder || Number(until) < Date.now()) {
      storage.setItem(key, `${mine} ${Date.now() + LEASE_MS}`);
      await pause(SETTLE_MS);
      if (storage.getItem(key)?.startsWith(`${mine} `)) break;
    } else await pause(SETTLE_MS + Math.random() * SETTLE_MS);
  }
  try {
    return await task();
  } finally {
    if (storage.getItem(key)?.startsWith(`${mine} `)) storage.removeItem(key);
  }
}

/** The link between the tabs that keep their session under `sessionKey` of the browser's localStorage. */
export function browserTabLink(storage: Storage, sessionKey: string): TabLink {
  const name = `callsign:${sessionKey}`;
  const listeners: ((reason?: SignOutReason) => void)[] = [];
  const tell = (reason?: SignOutReason) => {
    for (const listener of listeners) listener(reason);
  };
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : undefined;
  const onMessage = (event: MessageEvent) => tell(event.data?.reason);
  const onStorage = (event: StorageEvent) => {
    if (event.key === sessionKey) tell(event.newValue === null ? 'signed_out' : undefined);
  };
  if (channel) channel.addEventListener('message', onMessage);
  else globalThis.addEventListener?.('storage', onStorage);
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  return {
    announce: (reason) => channel?.postMessage({ reason }),
    onAnnounce: (listener) => void listeners.push(listener),
    exclusive: (task) =>
      locks ? locks.request(name, () => task()) : underLease(storage, `${sessionKey}:refresh-lease`, task),
    close() {
      channel?.close();
      globalThis.removeEventListener?.('storage', onStorage);
    },
  };
}
