// One sign-in, whatever proved it: a PIN, a code to the phone, a passkey or a recovery code (sign-in-proof.ts),
// on the REST surface, the hosted pages and the account page alike.
//
// Rules it enforces:
// - A proof's method must be on (sign-in-methods.ts) before anything of it is checked, spent or counted.
// - The proof is spent, the account held (storage/rules/sign-in-hold.ts) and what the sign-in opens written in
//   one transaction: a proof signs in once, and only into a live account the operator has not locked. A PIN
//   spends nothing, so its sign-in is one statement that holds, clears the wrong PINs and opens.
// - An operator's lock answers ACCOUNT_LOCKED; an account that is not there answers as the proof says.
// - Each sign-in is counted by its method, once it has committed.
import { isIPv4, isIPv6 } from 'node:net';
import type { SignInMethod } from '../../config/sign-in-settings.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import {
  type HeldAccount,
  holdAccountForPinSignIn,
  holdAccountForSignIn,
} from '../../storage/rules/sign-in-hold.ts';
import type { Count } from '../counts.ts';
import type { AccessTokens } from '../sessions/access-tokens.ts';
import { type Authentication, authOfSession } from '../sessions/authentication.ts';
import type { PreparedSession, SessionService, SessionToOpen } from '../sessions/sessions.ts';
import { lockedByOperator } from './account-errors.ts';
import type { Device, DeviceInput } from './account-inputs.ts';
import { assertMethodOn, assertRecoverySignInOn } from './sign-in-methods.ts';
import type { CheckedPin, ProofMethod, SignInProof, SpendingProof } from './sign-in-proof.ts';

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

/** The session a sign-in opens for the account, ready to write; none for the hosted pages. */
type Opens = PreparedSession | undefined;
type SessionFor<T extends Opens> = (userId: string, amr: string[]) => T;
type Done<T extends Opens> = SignedInAccount & { opened: T };

export class SignIn {
  constructor(private readonly d: SignInDeps) {}

  /** REST: a session of its own on this device, from this address, and its tokens. */
  async rest(
    proof: SignInProof,
    device: DeviceInput | undefined,
    ip: string,
  ): Promise<{ user: UserRow } & RestTokens> {
    this.assertOn(proof.method);
    const { user, opened } = await this.signIn(proof, (userId, amr) =>
      this.d.sessions.prepare(this.d.rest.session(userId, device, ip, amr)),
    );
    const { session } = opened.write;
    const auth = authOfSession({ auth_time: session.authTime ?? session.now, amr: session.amr ?? null });
    return { user, ...this.d.rest.tokens(user.id, session.id, opened.refreshToken, auth) };
  }

  /** The hosted pages, which go on to their single sign-on: the account and how it proved who it is. */
  async onPage(proof: SignInProof): Promise<SignedInAccount> {
    this.assertOn(proof.method);
    const { user, amr } = await this.signIn(proof, () => undefined);
    return { user, amr };
  }

  private assertOn(method: ProofMethod): void {
    if (method === 'recovery_code') assertRecoverySignInOn(this.d.signInMethods);
    else assertMethodOn(this.d.signInMethods, method);
  }

  private async signIn<T extends Opens>(proof: SignInProof, sessionFor: SessionFor<T>): Promise<Done<T>> {
    const checked = await proof.check();
    const done =
      'pin' in checked ? await this.byPin(checked, sessionFor) : await this.spending(checked, sessionFor);
    this.d.signIns?.inc({ method: proof.method });
    await checked.told?.(done.user);
    return done;
  }

  /** A PIN: one statement holds the account, clears its wrong PINs and opens the session. */
  private async byPin<T extends Opens>(checked: CheckedPin, sessionFor: SessionFor<T>): Promise<Done<T>> {
    const opened = sessionFor(checked.pin.userId, checked.amr);
    const held = await holdAccountForPinSignIn(this.d.db, checked.pin, opened?.write);
    return { user: heldOrRefused(held, checked), amr: checked.amr, opened };
  }

  /** A proof spent in the transaction that holds the account and opens the session. */
  private spending<T extends Opens>(checked: SpendingProof, sessionFor: SessionFor<T>): Promise<Done<T>> {
    return this.d.db.transaction(async (tx) => {
      const { account: whose, amr } = await checked.spend(tx);
      const account = heldOrRefused(await holdAccountForSignIn(tx, whose), checked);
      await checked.held?.(tx, account);
      const opened = sessionFor(account.id, amr);
      if (opened) await this.d.sessions.write(tx, opened.write);
      return { user: account, amr, opened };
    });
  }
}

/** The account held, or the refusal: an operator's lock says so; otherwise the proof says what is not there. */
function heldOrRefused(held: HeldAccount, checked: CheckedPin | SpendingProof): UserRow {
  if (held.held) return held.account;
  throw held.refusal === 'locked_by_operator' ? lockedByOperator() : checked.notThere();
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
  session(
    userId: string,
    device: DeviceInput | undefined,
    ip: string,
    amr: string[],
  ): SessionToOpen & { authTime: Date } {
    const authTime = this.d.clock.now();
    const clientId = this.d.firstPartyClientId;
    return {
      userId,
      clientId,
      device: deviceOf(device),
      ipAddress: maskIp(ip),
      scope: REST_SCOPE,
      authTime,
      amr,
    };
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

/** The device as sent, as a session records it: the name trimmed (none when blank), `other` when not said. */
export const deviceOf = (input?: DeviceInput): Device => ({
  name: input?.name?.trim() || null,
  platform: input?.platform ?? 'other',
});

/** A session keeps part of the address: IPv4 three octets (203.0.113.*), IPv6 its first 48 bits (2001:db8:85a3:*). */
export function maskIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return maskIp(mapped[1]);
  if (isIPv4(ip)) return `${ip.split('.').slice(0, 3).join('.')}.*`;
  if (isIPv6(ip))
    return `${expandIPv6(ip)
      .slice(0, 3)
      .map((h) => h.replace(/^0+(?=.)/, ''))
      .join(':')}:*`;
  return '*';
}

function expandIPv6(ip: string): string[] {
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = ip.includes('::') ? Array(8 - h.length - t.length).fill('0') : [];
  return [...h, ...fill, ...t];
}
