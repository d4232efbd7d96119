// Browser tabs of one app share one session in localStorage. They take turns to refresh it (one refresh at a time
// across tabs: Web Locks where present, else a lease written in localStorage), and each tells the others when it
// changed the session (a BroadcastChannel where present, else the storage event the browser raises by itself).
import { parseSession, type Session, type SignOutReason } from './session.js';

/** What a tab tells the others: its session now, and why it ended when it did. */
export interface TabNews {
  session: Session | null;
  reason?: SignOutReason;
}

export interface TabLink {
  /** tells the other tabs the session this tab just stored (or that it ended, and why) */
  announce(news: TabNews): void;
  /** calls back when another tab changed the session */
  onAnnounce(listener: (news: TabNews) => void): void;
  /** runs `task` while no other tab runs its own; `waited` says whether another tab ran its own first */
  exclusive<T>(task: (waited: boolean) => Promise<T>): Promise<T>;
  close(): void;
}

/** A client whose storage no other tab reads: nothing to share. */
export const soloLink = (): TabLink => ({
  announce() {},
  onAnnounce() {},
  exclusive: (task) => task(false),
  close() {},
});

interface LockManagerLike {
  request<T>(name: string, task: () => Promise<T>): Promise<T>;
  request<T>(
    name: string,
    options: { ifAvailable: true },
    task: (lock: object | null) => Promise<T>,
  ): Promise<T>;
}

const BUSY = Symbol('busy');

/** One at a time across tabs with Web Locks: at once when the lock is free, else after the tab that holds it. */
async function underLock<T>(locks: LockManagerLike, name: string, task: (waited: boolean) => Promise<T>) {
  const atOnce = await locks.request<T | typeof BUSY>(name, { ifAvailable: true }, async (lock) =>
    lock ? task(false) : BUSY,
  );
  return atOnce === BUSY ? locks.request(name, () => task(true)) : atOnce;
}

/** How long a tab's lease on the refresh lasts at most, should the tab close while it holds it. */
const LEASE_MS = 15_000;
/** How long a tab waits, after writing its lease, for a lease another tab wrote at the same moment to show. */
const SETTLE_MS = 30;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One at a time across tabs without Web Locks: a lease in localStorage, checked again after it settles. */
async function underLease<T>(
  storage: Storage,
  key: string,
  task: (waited: boolean) => Promise<T>,
): Promise<T> {
  const mine = `${Math.random().toString(36).slice(2)}.${Date.now()}`;
  let waited = false;
  for (;;) {
    const [holder, until] = (storage.getItem(key) ?? '').split(' ');
    if (!holder || Number(until) < Date.now()) {
      storage.setItem(key, `${mine} ${Date.now() + LEASE_MS}`);
      await pause(SETTLE_MS);
      if (storage.getItem(key)?.startsWith(`${mine} `)) break;
    } else {
      waited = true;
      await pause(SETTLE_MS + Math.random() * SETTLE_MS);
    }
  }
  try {
    return await task(waited);
  } finally {
    if (storage.getItem(key)?.startsWith(`${mine} `)) storage.removeItem(key);
  }
}

/** The link between the tabs that keep their session under `sessionKey` of the browser's localStorage. */
export function browserTabLink(storage: Storage, sessionKey: string): TabLink {
  const name = `callsign:${sessionKey}`;
  const listeners: ((news: TabNews) => void)[] = [];
  const tell = (news: TabNews) => {
    for (const listener of listeners) listener(news);
  };
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(name) : undefined;
  // The session itself travels in the message: another tab's view of localStorage may lag behind it.
  const onMessage = (event: MessageEvent) =>
    tell({ session: parseSession(event.data?.session) ?? null, reason: event.data?.reason });
  const onStorage = (event: StorageEvent) => {
    if (event.key === sessionKey) tell({ session: parseSession(event.newValue) ?? null });
  };
  if (channel) channel.addEventListener('message', onMessage);
  else globalThis.addEventListener?.('storage', onStorage);
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  return {
    announce: (news) =>
      channel?.postMessage({ session: news.session && JSON.stringify(news.session), reason: news.reason }),
    onAnnounce: (listener) => void listeners.push(listener),
    exclusive: (task) =>
      locks ? underLock(locks, name, task) : underLease(storage, `${sessionKey}:refresh-lease`, task),
    close() {
      channel?.close();
      globalThis.removeEventListener?.('storage', onStorage);
    },
  };
}
