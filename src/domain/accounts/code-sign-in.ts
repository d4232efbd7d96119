// Signing in with a code to the phone, where SIGNIN_METHODS has `code`: the code is asked for with purpose
// `signin` on /auth/otp/send (every rule of a send applies), verified for a temp token, and the temp token
// signs in like a PIN: the same answer and event, its `amr` the code's channel's.
//
// Rules it enforces:
// - The temp token is of purpose `signin`, unused and unexpired, and is used by the transaction that opens
//   the session (storage/rules/temp-tokens.ts), so one code signs in once.
// - The account is the live one that has the number then, not locked by the operator; the PIN's lock neither
//   stops it nor is lifted (storage/rules/pinless-sign-in.ts).
import type { SignInMethod } from '../../config/sign-in-settings.ts';
import type { Clock } from '../../providers/clock.ts';
import type { Database, Queryable } from '../../storage/db.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { holdAccountForSignIn } from '../../storage/rules/pinless-sign-in.ts';
import type { OtpService } from '../codes/otp.ts';
import { fieldError } from '../errors.ts';
import type { AccessTokens } from '../sessions/access-tokens.ts';
import { authOfSession } from '../sessions/authentication.ts';
import { RestSignIn, type RestTokens } from '../sessions/rest-sign-in.ts';
import type { SessionService } from '../sessions/sessions.ts';
import { lockedByOperator } from './account-errors.ts';
import { parseDevice } from './device.ts';
import { assertMethodOn } from './sign-in-methods.ts';

export interface CodeSignInDeps {
  db: Database;
  clock: Clock;
  otp: OtpService;
  sessions: SessionService;
  tokens: AccessTokens;
  firstPartyClientId: string;
  signInMethods: ReadonlySet<SignInMethod>;
  /** told of each sign-in, for the metrics */
  onSignIn?: (method: 'code') => void;
}

export class CodeSignIn {
  readonly #rest: RestSignIn;
  constructor(private readonly d: CodeSignInDeps) {
    this.#rest = new RestSignIn(d);
  }

  /** The account whose number the temp token proved, signed in on a new session. */
  async signIn(
    body: { temp_token: string; device?: unknown },
    ip: string,
  ): Promise<{ user: UserRow } & RestTokens> {
    assertMethodOn(this.d.signInMethods, 'code');
    const device = parseDevice(body.device);
    const { account, session, refreshToken } = await this.d.db.transaction(async (tx) => {
      const { account, amr } = await this.holder(tx, body.temp_token);
      const opened = await this.d.sessions.open(tx, this.#rest.session(account.id, device, ip, amr));
      return { ...opened, account };
    });
    this.d.onSignIn?.('code');
    return {
      user: account,
      ...this.#rest.tokens(account.id, session.id, refreshToken, authOfSession(session)),
    };
  }

  /**
   * The account a code's temp token proves and how, for the hosted pages, which go on to a single sign-on
   * rather than a session of their own.
   */
  async proved(tempToken: string): Promise<{ user: UserRow; amr: string[] }> {
    assertMethodOn(this.d.signInMethods, 'code');
    const { account, amr } = await this.d.db.transaction((tx) => this.holder(tx, tempToken));
    this.d.onSignIn?.('code');
    return { user: account, amr };
  }

  /** Uses the temp token, and holds the live account that has its number while the sign-in is written. */
  private async holder(tx: Queryable, tempToken: string): Promise<{ account: UserRow; amr: string[] }> {
    const proof = await this.d.otp.consumeTempToken(tx, tempToken, 'signin');
    const held = await holdAccountForSignIn(tx, { phone: proof.phone });
    if (!held.held)
      throw held.refusal === 'locked_by_operator'
        ? lockedByOperator()
        : fieldError('PHONE_NOT_FOUND', 'phone', 'no account uses this phone number');
    return { account: held.account, amr: proof.amr };
  }
}
