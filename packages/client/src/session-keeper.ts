// The client's one session: in memory, in the storage, told to the other tabs, and told to the app's listeners.
import { parseSession, type Session, type SessionListener, type SignOutReason } from './session.js';
import type { SessionStorage } from './storage.js';
import type { TabLink } from './tab-link.js';

type Change = 'SIGNED_IN' | 'TOKEN_REFRESHED' | 'USER_UPDATED';

/**
 * A browser may show one tab another tab's storage writes a moment late: a stored session older than the one
 * held (the same account, an earlier expiry) is a late view, never a change.
 */
const olderThan = (held: Session | undefined, seen: Session | undefined) =>
  held !== undefined &&
  seen !== undefined &&
  seen.user.id === held.user.id &&
  seen.expiresAt < held.expiresAt;

/** The event that tells how the session changed from `before` to `after` (another tab's change), if it did. */
function changeBetween(
  before: Session | undefined,
  after: Session | undefined,
): Change | 'SIGNED_OUT' | undefined {
  if (!before) return after ? 'SIGNED_IN' : undefined;
  if (!after) return 'SIGNED_OUT';
  if (after.refreshToken !== before.refreshToken)
    return after.user.id === before.user.id ? 'TOKEN_REFRESHED' : 'SIGNED_IN';
  return JSON.stringify(after.user) === JSON.stringify(before.user) ? undefined : 'USER_UPDATED';
}

export class SessionKeeper {
  private current: Session | undefined;
  private changedSinceStart = false;
  private readonly started: Promise<void>;
  private readonly listeners = new Set<SessionListener>();
  private readonly waiters = new Set<() => void>();

  constructor(
    private readonly storage: SessionStorage,
    private readonly key: string,
    private readonly link: TabLink,
    private readonly onSessionEnd?: (reason: SignOutReason) => void,
  ) {
    this.started = Promise.resolve(storage.getItem(key)).then(
      (text) => {
        if (!this.changedSinceStart) this.current = parseSession(text);
      },
      () => {},
    );
    link.onAnnounce((told) => void this.adopt(told.session ?? undefined, told.reason));
  }

  /** The session as this client knows it. */
  async get(): Promise<Session | undefined> {
    await this.started;
    return this.current;
  }

  /** The session as the storage holds it now: another tab may have refreshed or ended it. */
  async reload(): Promise<Session | undefined> {
    await this.started;
    this.adopt(parseSession(await this.storage.getItem(this.key)));
    return this.current;
  }

  /** Resolves at the session's next change, or after `ms`. */
  nextChange(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  /** Takes the session another tab told of, or the storage holds, unless it is a late view of an older one. */
  private adopt(after: Session | undefined, reason?: SignOutReason) {
    const before = this.current;
    if (olderThan(before, after)) return;
    this.current = after;
    const change = changeBetween(before, after);
    if (change === 'SIGNED_OUT') this.signedOut(reason ?? 'signed_out');
    else if (change && after) this.emit({ type: change, session: after });
  }

  async save(session: Session, change: Change): Promise<Session> {
    this.changedSinceStart = true;
    this.current = session;
    await this.storage.setItem(this.key, JSON.stringify(session));
    this.link.announce({ session });
    this.emit({ type: change, session });
    return session;
  }

  async end(reason: SignOutReason): Promise<void> {
    this.changedSinceStart = true;
    const had = this.current;
    this.current = undefined;
    await this.storage.removeItem(this.key);
    this.link.announce({ session: null, reason });
    if (had) this.signedOut(reason);
  }

  listen(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private signedOut(reason: SignOutReason) {
    this.emit({ type: 'SIGNED_OUT', session: null, reason });
    this.onSessionEnd?.(reason);
  }

  private emit(event: Parameters<SessionListener>[0]) {
    for (const waiter of [...this.waiters]) waiter();
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        // A listener's failure surfaces as an uncaught error, as a DOM event listener's does, and the others are
        // still told.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}
