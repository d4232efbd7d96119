import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../src/storage/db.ts';
import type { webhookReceiver } from '../webhooks.ts';
import type { Chain, Ledger, Reply } from './traffic.ts';

// The checks at the end of the fault run, each of which must be 0: what the clients hold (refresh chains and
// the sessions behind their access tokens), the webhook events committed but never delivered, and the rows of
// the database read on the primary (accounts the clients were told were made, each user's creation event).

export interface Checks {
  chainsBroken: number;
  chainsChecked: number;
  chainsUnsure: number;
  /** unsure chains whose held token was refused: the rotation went through and its answer was lost */
  chainsUnsureRefused: number;
  sessionsLost: number;
  webhooksUndelivered: number;
  webhooksCommitted: number;
  accountsDisagreeing: number;
  refreshTokensUsedTwice: number;
  /** the first few refusals of a chain or session the client held: what they said */
  refusals: string[];
}

type Call = (what: string, path: string, ask?: { method?: 'GET'; bearer?: string }) => Promise<Reply>;

/**
 * Every chain the clients hold: its session asked for its user, its refresh token refreshed once more, and then
 * the token before that presented again, which inside the grace window may only give the same successor. A
 * chain whose last refresh went unanswered is refreshed with the token the client still holds: refused, the
 * rotation had gone through and its answer was lost (counted apart: that client never held the latest token).
 */
export async function clientChecks(ledger: Ledger, call: Call, refresh: (chain: Chain) => Promise<number>) {
  const counts = {
    broken: 0,
    lost: 0,
    twice: 0,
    sure: 0,
    unsure: 0,
    unsureRefused: 0,
    samples: [] as string[],
  };
  for (let i = 0; i < ledger.chains.length; i += 20) {
    const batch = ledger.chains.slice(i, i + 20);
    const wasUnsure = batch.map((c) => c.unsure);
    // The session first: the refresh gives a new access token.
    const held = await Promise.all(
      batch.map((c) =>
        call('final session', c.kind === 'rest' ? '/users/me' : '/oauth/userinfo', {
          method: 'GET',
          bearer: c.access,
        }),
      ),
    );
    const refreshed = await Promise.all(batch.map((c) => refresh(c)));
    const replays = batch.map((c) => ({ ...c, token: c.previous ?? '' }));
    const replayed = await Promise.all(replays.map((r) => refresh(r)));
    const sample = (what: string, reply: Reply | number) => {
      if (counts.samples.length < 6)
        counts.samples.push(
          typeof reply === 'number'
            ? `${what}: ${reply}`
            : `${what}: ${reply.status} ${reply.text.slice(0, 160)}`,
        );
    };
    batch.forEach((chain, k) => {
      if (wasUnsure[k]) {
        counts.unsure++;
        if (refreshed[k] !== 200) counts.unsureRefused++;
        return;
      }
      counts.sure++;
      if (held[k].status === 401) {
        counts.lost++;
        sample(`${chain.kind} session`, held[k]);
      }
      if (refreshed[k] !== 200) {
        counts.broken++;
        sample(`${chain.kind} refresh`, refreshed[k]);
      }
      if (replayed[k] === 200 && replays[k].token !== chain.token) counts.twice++;
    });
  }
  return {
    chainsBroken: counts.broken,
    chainsChecked: counts.sure,
    chainsUnsure: counts.unsure,
    chainsUnsureRefused: counts.unsureRefused,
    sessionsLost: counts.lost,
    refreshTokensUsedTwice: counts.twice,
    refusals: counts.samples,
  };
}

/** Webhook events committed since `afterSeq` that the receiver has not had once it stops arriving (at most 60 s). */
export async function undeliveredWebhooks(
  db: Database,
  receiver: Awaited<ReturnType<typeof webhookReceiver>>,
  afterSeq: number,
) {
  const committed = await db.query<{ id: string }>('SELECT id FROM outbox_events WHERE seq > $1', [afterSeq]);
  const missing = () => committed.filter((e) => !receiver.arrivals.has(e.id)).length;
  for (let waited = 0; waited < 60 && missing() > 0; waited++) await sleep(1000);
  return { webhooksUndelivered: missing(), webhooksCommitted: committed.length };
}

/** The rows that must agree: each account the clients were told was made, with its creation event. */
export async function rowChecks(db: Database, ledger: Ledger) {
  const rows = await db.query<{ phone: string; handle: string }>(
    'SELECT phone, handle FROM users WHERE deleted_at IS NULL AND phone = ANY($1)',
    [ledger.accounts.map((a) => a.phone)],
  );
  const found = new Map(rows.map((r) => [r.phone, r.handle]));
  const missing = ledger.accounts.filter((a) => found.get(a.phone) !== a.handle).length;
  const [withoutEvent] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM users u WHERE NOT EXISTS (
       SELECT 1 FROM outbox_events e WHERE e.type = 'user.created' AND e.data->'user'->>'id' = u.id::text)`,
  );
  return { accountsDisagreeing: missing + withoutEvent.n };
}
