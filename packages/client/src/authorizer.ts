// Calls made as the signed-in user, with a token that never signs the user out by itself: the access token is
// refreshed before it expires; all refreshes of a client are one request in flight, and of a browser's tabs one
// at a time; a refused access token is retried once after one refresh; only a refused refresh token ends the
// session.
import type { DataOf, Method, Path } from './api-types.js';
import { CallsignError } from './errors.js';
import type { Session, SignOutReason } from './session.js';
import type { SessionKeeper } from './session-keeper.js';
import type { TabLink } from './tab-link.js';
import type { CallOptions, Transport } from './transport.js';

/** An access token that expires within this is refreshed before it is used. */
const REFRESH_AHEAD_MS = 60_000;
/**
 * How long a tab that waited for another tab's refresh waits for its news (the new session) before it refreshes
 * itself: the news may reach it a moment after the other tab let go.
 */
const NEWS_WAIT_MS = 1000;

const refusedToken = (err: unknown): err is CallsignError =>
  err instanceof CallsignError && (err.code === 'TOKEN_EXPIRED' || err.code === 'INVALID_TOKEN');

export const notSignedIn = () => new CallsignError('NOT_SIGNED_IN', 'no user is signed in', 0);

export class Authorizer {
  private refreshing: Promise<Session | undefined> | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly keeper: SessionKeeper,
    private readonly tabs: TabLink,
  ) {}

  /** The access token, refreshed first when it expires within 60 s; undefined when no one is signed in. */
  async accessToken(): Promise<string | undefined> {
    // A tab that has no session yet reads the stored one: another tab may have signed in a moment ago.
    const session = (await this.keeper.get()) ?? (await this.keeper.reload());
    if (!session) return undefined;
    if (session.expiresAt - Date.now() > REFRESH_AHEAD_MS) return session.accessToken;
    return (await this.refresh(session, 'refresh_failed'))?.accessToken;
  }

  /**
   * The session after the one `seen` was refreshed: by this call, by the refresh already in flight, or by
   * another tab meanwhile. Undefined when the refresh token was refused (the session then ends for `reason`).
   */
  refresh(seen: Session, reason: SignOutReason): Promise<Session | undefined> {
    this.refreshing ??= this.tabs
      .exclusive((waited) => this.refreshUnlessDone(seen, reason, waited))
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  private async refreshUnlessDone(
    seen: Session,
    reason: SignOutReason,
    waited: boolean,
  ): Promise<Session | undefined> {
    // Another tab may have refreshed (or ended) the session while this one waited its turn: its refresh token
    // is then the one to use, and this one's old token must not be presented again.
    let stored = await this.keeper.reload();
    if (waited && stored?.refreshToken === seen.refreshToken) {
      await this.keeper.nextChange(NEWS_WAIT_MS);
      stored = await this.keeper.reload();
    }
    if (!stored || stored.refreshToken !== seen.refreshToken) return stored;
    let next: DataOf<'/auth/refresh', 'post'>;
    try {
      next = await this.transport.call('post', '/auth/refresh', {
        body: { refresh_token: stored.refreshToken },
      });
    } catch (err) {
      if (!(err instanceof CallsignError && err.code === 'INVALID_REFRESH_TOKEN')) throw err;
      await this.keeper.end(reason);
      return undefined;
    }
    const refreshed = {
      ...stored,
      accessToken: next.access_token,
      refreshToken: next.refresh_token,
      expiresAt: Date.now() + next.expires_in * 1000,
    };
    return this.keeper.save(refreshed, 'TOKEN_REFRESHED');
  }

  /** A call as the signed-in user; a refused access token is retried once, after one refresh. */
  async call<P extends Path, M extends Method>(
    method: M,
    path: P,
    options: Omit<CallOptions<P, M>, 'token'> = {},
  ): Promise<DataOf<P, M>> {
    const token = await this.accessToken();
    if (!token) throw notSignedIn();
    try {
      return await this.transport.call(method, path, { ...options, token });
    } catch (err) {
      if (!refusedToken(err)) throw err;
      const session = await this.keeper.get();
      if (!session) throw err;
      // A token refused although it had not expired means the session was ended elsewhere.
      const reason = err.code === 'INVALID_TOKEN' ? 'session_revoked' : 'refresh_failed';
      const next = session.accessToken !== token ? session : await this.refresh(session, reason);
      if (!next) throw err;
      return this.transport.call(method, path, { ...options, token: next.accessToken });
    }
  }
}
