// One sign-in, whatever proved it: a PIN, a code to the phone, a passkey or a recovery code (sign-in-proof.ts),
// on the REST surface, the hosted pages and the account page alike.
//
// Rules it enforces:
// - A proof's method must be on (sign-in-methods.ts) before anything of it is checked, spent or counted.
// - The proof is spent, the account held (storage/rules/sign-in-hold.ts) and what the sign-in opens written in
//   one transaction: a proof signs in once, and only into a live account the operator has not locked.
// - An operator's lock answers ACCOUNT_LOCKED; an account that is not there answers as the proof says.
// - Each sign-in is counted by its method, once it has committed.
import type { SignInMethod } from '../../config/sign-in-settings.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Database, Queryable } from '../../storage/db.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { holdAccountForSignIn } from '../../storage/rules/sign-in-hold.ts';
import type { Count } from '../counts.ts';
import type { AccessTokens } from '../sessions/access-tokens.ts';
import { type Authentication, authOfSession } from '../sessions/authentication.ts';
import type { SessionService, SessionToOpen } from '../sessions/sessions.ts';
import { lockedByOperator } from './account-errors.ts';
import { type Device, maskIp, parseDevice } from './device.ts';
import { assertMethodOn, assertRecoverySignInOn } from './sign-in-methods.ts';
import type { ProofMethod, SignInProof } from './sign-in-proof.ts';

export interface SignInDeps {
  db: Database;
  sessions: SessionService;
  rest: RestSignIn;
  signInMethods: ReadonlySet<SignInMethod>;
  /** each sign-in, by its method */
  signIns?: Count<'method'>;
}

/** The account signed in and how it proved who it is (RFC 8176 methods). */
export interface SignedInAccount {
  user: UserRow;
  amr: string[];
}

type Open<T> = (tx: Queryable, account: UserRow, amr: string[]) => Promise<T>;

export class SignIn {
  constructor(private readonly d: SignInDeps) {}

  /** REST: a session of its own on this device, from this address, and its tokens. */
  async rest(proof: SignInProof, deviceInput: unknown, ip: string): Promise<{ user: UserRow } & RestTokens> {
    this.assertOn(proof.method);
    const device = parseDevice(deviceInput);
    const { user, opened } = await this.signIn(proof, (tx, account, amr) =>
      this.d.sessions.open(tx, this.d.rest.session(account.id, device, ip, amr)),
    );
    const auth = authOfSession(opened.session);
    return { user, ...this.d.rest.tokens(user.id, opened.session.id, opened.refreshToken, auth) };
  }

  /** The hosted pages, which go on to their single sign-on: the account and how it proved who it is. */
  async onPage(proof: SignInProof): Promise<SignedInAccount> {
    this.assertOn(proof.method);
    const { user, amr } = await this.signIn(proof, async () => undefined);
    return { user, amr };
  }

  private assertOn(method: ProofMethod): void {
    if (method === 'recovery_code') assertRecoverySignInOn(this.d.signInMethods);
    else assertMethodOn(this.d.signInMethods, method);
  }

  private async signIn<T>(proof: SignInProof, open: Open<T>): Promise<SignedInAccount & { opened: T }> {
    const checked = await proof.check();
    const done = await this.d.db.transaction(async (tx) => {
      const { account: whose, amr } = await checked.spend(tx);
      const held = await holdAccountForSignIn(tx, whose);
      if (!held.held) throw held.refusal === 'locked_by_operator' ? lockedByOperator() : checked.notThere();
      await checked.held?.(tx, held.account);
      return { user: held.account, amr, opened: await open(tx, held.account, amr) };
    });
    this.d.signIns?.inc({ method: proof.method });
    await checked.told?.(done.user);
    return done;
  }
}

/** Spec "Token lifetimes": REST access tokens say expires_in 900. */
export const REST_ACCESS_TOKEN_TTL_SECONDS = 900;
/** What a REST access token may do (D14). */
export const REST_SCOPE = 'openid profile phone email kyc';

export interface RestTokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** What a sign-in on the REST surface opens and answers: a session of the first-party client, its tokens. */
export class RestSignIn {
  constructor(private readonly d: { tokens: AccessTokens; firstPartyClientId: string; clock: Clock }) {}

  /** The session a sign-in on this device, from this address, proved by `amr`, opens now. */
  session(userId: string, device: Device, ip: string, amr: string[]): SessionToOpen & { authTime: Date } {
    const authTime = this.d.clock.now();
    const clientId = this.d.firstPartyClientId;
    return { userId, clientId, device, ipAddress: maskIp(ip), scope: REST_SCOPE, authTime, amr };
  }

  /** The tokens of a session just opened or rotated, whose sign-in `auth` says when and how was proved. */
  tokens(userId: string, sessionId: string, refreshToken: string, auth: Authentication): RestTokens {
    const access_token = this.d.tokens.issue({
      sub: userId,
      aud: this.d.firstPartyClientId,
      scope: REST_SCOPE,
      sid: sessionId,
      ttlSeconds: REST_ACCESS_TOKEN_TTL_SECONDS,
      auth,
    });
    return { access_token, refresh_token: refreshToken, expires_in: REST_ACCESS_TOKEN_TTL_SECONDS };
  }
}
