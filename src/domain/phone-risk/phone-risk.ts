// The phone-risk room: whether a code to a number still speaks for the account's owner. It owns the SIM swap
// and number recycling checks before a code signs in or resets a PIN (code-step-guard.ts), the answers the
// provider gave (reused for KNOWN_ANSWER_SECONDS, as each lookup is billed), when each account last proved
// its number, the operators' flag and clearance, and `user.phone_risk`.

import type { SignInMethod } from '../../config/sign-in-settings.ts';
import type { SimCheckSettings } from '../../config/sim-check-settings.ts';
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { SimCheckProvider } from '../../providers/sim-check/sim-check.ts';
import type { Database } from '../../storage/db.ts';
import { passkeysRepo } from '../../storage/repositories/passkeys.ts';
import { type CheckKind, phoneRiskRepo } from '../../storage/repositories/phone-risk.ts';
import { type UserRow, usersRepo } from '../../storage/repositories/users.ts';
import { recoveryCodesOf } from '../../storage/rules/recovery-codes.ts';
import { DomainError, noSuchUser } from '../errors.ts';
import { isUuid } from '../ids.ts';
import type { Events } from '../webhooks/events.ts';
import {
  type CheckOutcome,
  checked,
  outcomeOf,
  type RiskReason,
  recyclingDate,
  refusalFor,
} from './code-step-guard.ts';

export type CodeStep = 'signin' | 'pin_reset';

export interface PhoneRiskDeps {
  db: Database;
  clock: Clock;
  random: Random;
  events: Events;
  /** undefined: SIM_CHECK_PROVIDER=none, and nothing is checked */
  provider: SimCheckProvider | undefined;
  settings: SimCheckSettings;
  signInMethods: ReadonlySet<SignInMethod>;
  /** counts each lookup's answer (metrics) */
  onCheck?: (provider: string, check: CheckKind, outcome: string) => void;
}

/** How long a known answer is reused for the same number. */
export const KNOWN_ANSWER_SECONDS = 600;
/** How long an operator's clearance lets code steps through. */
export const CLEARANCE_SECONDS = 24 * 3600;
const CHECKS_SHOWN = 50;

type Answer = { outcome: CheckOutcome; lastSwapAt?: Date | null; detail?: string };

export class PhoneRiskService {
  constructor(private readonly d: PhoneRiskDeps) {}

  /** Whether a code for this purpose is checked before it is accepted. */
  guards(purpose: string): purpose is CodeStep {
    return this.d.provider !== undefined && (purpose === 'signin' || purpose === 'pin_reset');
  }

  /**
   * Refuses the step (FORBIDDEN, with the reason and what the account can use instead) when the number is at
   * risk; answers the id of the number's account, if it has one.
   */
  async beforeCodeStep(phone: string, step: CodeStep): Promise<string | undefined> {
    const provider = this.d.provider;
    const now = this.d.clock.now();
    const known = addSeconds(now, -KNOWN_ANSWER_SECONDS);
    const found = provider && (await phoneRiskRepo.accountWithProof(this.d.db, phone, known));
    if (!provider || !found) return undefined;
    const { account, proof, knownSwap } = found;
    if (!checked(this.d.settings, phone, proof, now)) return account.id;
    const swap = knownSwap
      ? { outcome: outcomeOf(knownSwap.outcome), lastSwapAt: knownSwap.last_swap_at }
      : await this.asked(account, 'sim_swap', now, () =>
          provider.swappedWithin(phone, this.d.settings.swapMaxAgeHours),
        );
    let reason = refusalFor(this.d.settings, swap.outcome);
    const since = reason ? undefined : recyclingDate(this.d.settings, account, proof, now);
    if (since && provider.recycledSince) {
      const recycledSince = provider.recycledSince.bind(provider);
      const recycling = await this.answer(account, 'number_recycling', now, () =>
        recycledSince(phone, since),
      );
      reason = refusalFor(this.d.settings, recycling.outcome);
    }
    if (reason) await this.refuse(account, step, reason, now, swap.lastSwapAt ?? undefined);
    return account.id;
  }

  /** A code step of this account went through: it proved its number now. */
  async proven(userId: string): Promise<void> {
    await phoneRiskRepo.proven(this.d.db, userId, this.d.clock.now());
  }

  /** The account's latest checks and what is known of its number, for operators. */
  async checksOf(userId: string) {
    const account = isUuid(userId) ? await usersRepo.findLiveById(this.d.db, userId) : undefined;
    if (!account) throw noSuchUser();
    const [checks, proof] = await Promise.all([
      phoneRiskRepo.checksOf(this.d.db, userId, CHECKS_SHOWN),
      phoneRiskRepo.proofOf(this.d.db, userId),
    ]);
    return { checks, proof };
  }

  /** An operator verified the owner: code steps go through for CLEARANCE_SECONDS, and the flag goes. */
  async clear(userId: string): Promise<{ cleared_until: Date }> {
    const until = addSeconds(this.d.clock.now(), CLEARANCE_SECONDS);
    if (!isUuid(userId) || !(await phoneRiskRepo.clear(this.d.db, userId, until))) throw noSuchUser();
    return { cleared_until: until };
  }

  /** A known answer of the last KNOWN_ANSWER_SECONDS, else the provider's, recorded and counted. */
  private async answer(account: UserRow, kind: CheckKind, now: Date, ask: () => Promise<Answer>) {
    const since = addSeconds(now, -KNOWN_ANSWER_SECONDS);
    const known = await phoneRiskRepo.knownSince(this.d.db, account.phone, kind, since);
    if (known) return { outcome: outcomeOf(known.outcome), lastSwapAt: known.last_swap_at } satisfies Answer;
    return this.asked(account, kind, now, ask);
  }

  /** The provider's answer, recorded and counted. */
  private async asked(account: UserRow, kind: CheckKind, now: Date, ask: () => Promise<Answer>) {
    const asked = await ask();
    const provider = this.d.provider?.name ?? 'none';
    await phoneRiskRepo.record(this.d.db, {
      id: this.d.random.uuid(),
      user_id: account.id,
      phone: account.phone,
      provider,
      check_kind: kind,
      outcome: asked.outcome,
      detail: asked.detail ?? null,
      last_swap_at: asked.lastSwapAt ?? null,
      checked_at: now,
    });
    this.d.onCheck?.(provider, kind, asked.outcome);
    return asked;
  }

  private async refuse(account: UserRow, step: CodeStep, reason: RiskReason, now: Date, lastSwapAt?: Date) {
    await this.d.db.transaction(async (tx) => {
      if (reason === 'number_recycled') await phoneRiskRepo.flagRecycled(tx, account.id, now);
      if (reason !== 'sim_check_unavailable')
        await this.d.events.emit(tx, 'user.phone_risk', {
          user_id: account.id,
          reason,
          step,
          detected_at: now.toISOString(),
          ...(lastSwapAt ? { last_swap_at: lastSwapAt.toISOString() } : {}),
        });
    });
    throw new DomainError('FORBIDDEN', REFUSALS[reason], {
      reason,
      alternatives: await this.alternatives(account, step),
    });
  }

  /**
   * What the account can still use instead of a code, of what it has and the service has on: its PIN (to sign
   * in; an imported account may have none), a passkey, a recovery code.
   */
  private async alternatives(account: UserRow, step: CodeStep): Promise<string[]> {
    const [passkeys, recovery] = await Promise.all([
      passkeysRepo.ofUser(this.d.db, account.id),
      recoveryCodesOf(this.d.db, account.id),
    ]);
    const methods = this.d.signInMethods;
    return [
      ...(step === 'signin' && methods.has('pin') && account.pin_hash !== null ? ['pin'] : []),
      ...(methods.has('passkey') && passkeys.length > 0 ? ['passkey'] : []),
      ...(recovery.remaining > 0 ? ['recovery_code'] : []),
    ];
  }
}

const REFUSALS: Record<RiskReason, string> = {
  sim_swap: "this number's SIM changed recently, so a code to it does not prove the account's owner",
  number_recycled: 'this number was given to a new subscriber since the account last proved it',
  sim_check_unavailable: "the number's SIM could not be checked; use another way",
};
