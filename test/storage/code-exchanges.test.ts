import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { CodeExchanges } from '../../src/storage/batches/code-exchanges.ts';
import { authorizationCodesRepo } from '../../src/storage/repositories/authorization-codes.ts';
import { type CodeRedemption, exchangeCodes } from '../../src/storage/rules/code-exchange.ts';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { countingStatements, whileRefusing } from '../helpers/database.ts';
import { ADMIN_TOKEN, REDIRECT, registerClient } from '../helpers/oauth.ts';

// P85: the code exchanges of one process that arrive together are read in one statement and written in one,
// and each is answered as it would be alone (D24's single use, P23/P55's live client, P51's live account).

describe('authorization-code exchanges read and written in batches', () => {
  let t: TestApp;
  let clientId: string;
  before(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
    clientId = (await registerClient(t)).client_id;
  });
  after(() => t.close());

  /** A code issued to `client` for `userId`, and the exchange that would redeem it. */
  async function issued(userId: string, client = clientId): Promise<CodeRedemption> {
    const hash = randomBytes(16).toString('hex');
    const now = t.clock.now();
    await authorizationCodesRepo.insert(t.c.db, {
      code_hash: hash,
      client_id: client,
      user_id: userId,
      redirect_uri: REDIRECT,
      dpop_jkt: null,
      scope: 'openid profile',
      code_challenge: 'challenge',
      nonce: null,
      auth_time: now,
      amr: ['pwd'],
      pin_version: 0, // a new account's (P88)
      created_at: now,
      expires_at: new Date(now.getTime() + 60_000),
    });
    const { write } = t.c.sessions.prepare({
      userId,
      clientId: client,
      device: { name: 'RP', platform: 'web' },
      ipAddress: null,
      scope: 'openid profile',
    });
    return { hash, opening: write };
  }

  const sessionOf = async (id: string) =>
    (
      await t.c.db.query<{ user_id: string; client_id: string; events: number }>(
        `SELECT user_id, client_id, (SELECT count(*)::int FROM outbox_events
           WHERE type = 'session.created' AND data->>'session_id' = $1::text) AS events
         FROM sessions WHERE id = $1::uuid`,
        [id],
      )
    )[0];
  const markOf = async (hash: string) => (await authorizationCodesRepo.find(t.c.db, hash))?.session_id;

  test('twelve exchanges of four accounts arriving together: one read, one write; each opens its own session', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, async () => (await signUp(t)).user.id));
    const exchanges = await Promise.all(Array.from({ length: 12 }, (_, i) => issued(users[i % 4])));
    const { db, sent } = countingStatements(t.c.db);
    const batches = new CodeExchanges(db);
    const read = await Promise.all(exchanges.map((e) => batches.find(e.hash)));
    assert.deepEqual(
      read.map((r) => r?.code_hash),
      exchanges.map((e) => e.hash),
    );
    const answers = await Promise.all(exchanges.map((e) => batches.redeem(e)));
    assert.equal(sent.length, 2, 'one statement to read all twelve, one to write them');
    for (const [i, e] of exchanges.entries()) {
      const session = e.opening.session;
      assert.equal(answers[i]?.opened, true);
      assert.equal(answers[i]?.account?.id, users[i % 4], 'each answered with its own account');
      assert.deepEqual(await sessionOf(session.id), {
        user_id: users[i % 4],
        client_id: clientId,
        events: 1,
      });
      assert.equal(await markOf(e.hash), session.id, 'the code names the session it opened (D24)');
    }
  });

  test('the same code twice in one batch opens one session; the other is answered as a used code', async () => {
    const user = (await signUp(t)).user.id;
    const first = await issued(user);
    const again = { ...first, opening: (await issued(user)).opening };
    const batches = new CodeExchanges(t.c.db);
    const answers = await Promise.all([batches.redeem(first), batches.redeem(again)]);
    const used = { opened: false, refusal: 'code_already_used' };
    assert.deepEqual(
      answers.map((a) => (a.opened ? true : a)),
      answers[0].opened ? [true, used] : [used, true],
      'one opened, the other refused as a used code',
    );
    const opened = answers[0].opened ? first : again;
    const other = answers[0].opened ? again : first;
    assert.equal(await markOf(first.hash), opened.opening.session.id);
    assert.equal(await sessionOf(other.opening.session.id), undefined, 'no second session');
  });

  test('one code in the batches of two processes at once opens one session; their other codes open theirs', async () => {
    const user = (await signUp(t)).user.id;
    const shared = await issued(user);
    const [ours, theirs] = [new CodeExchanges(t.c.db), new CodeExchanges(t.c.db)];
    const own = await Promise.all(Array.from({ length: 4 }, () => issued(user)));
    const theirOpening = (await issued(user)).opening;
    const [ourShared, theirShared, ...rest] = await Promise.all([
      ours.redeem(shared),
      theirs.redeem({ ...shared, opening: theirOpening }),
      ...own.map((e, i) => (i % 2 ? ours : theirs).redeem(e)),
    ]);
    assert.equal([ourShared, theirShared].filter((a) => a.opened).length, 1, 'the shared code opens once');
    assert.equal(
      [ourShared, theirShared].filter((a) => !a.opened && a.refusal === 'code_already_used').length,
      1,
      'the other finds it used',
    );
    assert.deepEqual(
      rest.map((a) => a?.opened),
      [true, true, true, true],
    );
  });

  test('a locked account, a deleted client and a live pair in one batch: each answered as alone', async () => {
    const [locked, live] = await Promise.all([signUp(t), signUp(t)]);
    const gone = (await registerClient(t)).client_id;
    const exchanges = [
      await issued(locked.user.id),
      await issued(live.user.id, gone),
      await issued(live.user.id),
    ];
    await t.c.db.query('UPDATE users SET admin_locked_at = $2 WHERE id = $1', [
      locked.user.id,
      t.clock.now(),
    ]);
    await t.c.db.query('UPDATE clients SET deleted_at = $2 WHERE client_id = $1', [gone, t.clock.now()]);
    const batches = new CodeExchanges(t.c.db);
    const [ofLocked, ofGone, ofLive] = await Promise.all(exchanges.map((e) => batches.redeem(e)));
    assert.deepEqual(ofLocked, { opened: false, refusal: 'account_locked' });
    assert.deepEqual(ofGone, { opened: false, refusal: 'client_deleted' });
    assert.equal(ofLive?.opened, true);
    const sessions = await Promise.all(exchanges.map((e) => sessionOf(e.opening.session.id)));
    assert.deepEqual(
      sessions.map((s) => s?.user_id),
      [undefined, undefined, live.user.id],
    );
  });

  test('an account deleted before its exchange: answered without an account, no session', async () => {
    const gone = await signUp(t);
    const exchange = await issued(gone.user.id);
    await t.c.db.query('UPDATE users SET deleted_at = $2 WHERE id = $1', [gone.user.id, t.clock.now()]);
    const answer = await new CodeExchanges(t.c.db).redeem(exchange);
    assert.deepEqual(answer, { opened: false, refusal: 'account_gone' });
    assert.equal(await sessionOf(exchange.opening.session.id), undefined);
  });

  test('a batch that fails is run again one exchange at a time: only the exchange that cannot succeed fails', async () => {
    const user = (await signUp(t)).user.id;
    const [bad, ...good] = await Promise.all([issued(user), issued(user), issued(user)]);
    await whileRefusing(t.c.db, 'sessions', 'INSERT', `NEW.id = '${bad.opening.session.id}'`, async () => {
      const { db, sent } = countingStatements(t.c.db);
      const batches = new CodeExchanges(db);
      const [failed, ...redeemed] = await Promise.allSettled([bad, ...good].map((e) => batches.redeem(e)));
      assert.equal(failed.status, 'rejected');
      assert.deepEqual(
        redeemed.map((r) => r.status === 'fulfilled' && r.value?.opened),
        [true, true],
      );
      assert.equal(sent.length, 4, 'the batch, then each on its own');
    });
    assert.equal(await markOf(bad.hash), null, 'the failed exchange left its code unused');
  });

  test('the statement names why it refused: withdrawn consent, a PIN set again, a used code', async () => {
    const user = await signUp(t);
    const thirdParty = (await registerClient(t, { first_party: false })).client_id;
    const [unconsented, stalePin, used] = [
      await issued(user.user.id, thirdParty),
      await issued(user.user.id),
      await issued(user.user.id),
    ];
    await t.c.db.query('UPDATE users SET pin_version = pin_version + 1 WHERE id = $1', [user.user.id]);
    await t.c.db.query('UPDATE authorization_codes SET used_at = $2 WHERE code_hash = $1', [
      used.hash,
      t.clock.now(),
    ]);
    const outcomes = await exchangeCodes(t.c.db, [unconsented, stalePin, used]);
    assert.deepEqual(outcomes, [
      { opened: false, refusal: 'consent_withdrawn' },
      { opened: false, refusal: 'pin_changed' },
      { opened: false, refusal: 'code_already_used' },
    ]);
  });

  test('reads together answer each hash its own code, and unknown hashes nothing', async () => {
    const user = (await signUp(t)).user.id;
    const known = await issued(user);
    const batches = new CodeExchanges(t.c.db);
    const [unknown, found] = await Promise.all([batches.find('never-issued'), batches.find(known.hash)]);
    assert.equal(unknown, undefined);
    assert.equal(found?.user_id, user);
  });
});
