// What follows a proven phone, whichever way it was proven (a code, or its mobile network): a temp token for
// the next step, bound to the phone and the purpose, for TEMP_TOKEN_TTL_SECONDS. A step that signs in or
// resets a PIN is checked against the number's SIM first (the phone-risk room), and the token comes after.
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Queryable } from '../../storage/db.ts';
import { type NewTempToken, tempTokensRepo } from '../../storage/repositories/temp-tokens.ts';
import { sha256 } from '../crypto.ts';
import type { PhoneRiskService } from '../phone-risk/phone-risk.ts';
import type { PublicPurpose } from './purposes.ts';

export const TEMP_TOKEN_TTL_SECONDS = 600;

/** How a phone was proven, as the temp token keeps it: by its mobile network, or the code's channel. */
export const PROVEN_BY_NETWORK = 'network';

export interface ProvenStepDeps {
  clock: Clock;
  random: Random;
  phoneRisk?: Pick<PhoneRiskService, 'guards' | 'beforeCodeStep' | 'proven'>;
}

export interface TempTokenAnswer {
  verified: true;
  temp_token: string;
  expires_in: number;
}

/** The row of a temp token for the step, made now. */
export function tempTokenOf(
  d: Pick<ProvenStepDeps, 'clock'>,
  token: string,
  step: { phone: string; purpose: PublicPurpose },
): NewTempToken {
  const now = d.clock.now();
  return {
    token_hash: sha256(token),
    phone: step.phone,
    purpose: step.purpose,
    created_at: now,
    expires_at: addSeconds(now, TEMP_TOKEN_TTL_SECONDS),
  };
}

/** A temp token written by `q`; `provenBy` names how (unset: the channel of the phone's latest code). */
export async function writeTempToken(
  d: ProvenStepDeps,
  q: Queryable,
  token: string,
  step: { phone: string; purpose: PublicPurpose; provenBy?: string },
): Promise<void> {
  await tempTokensRepo.insert(q, tempTokenOf(d, token, step), step.provenBy);
}

/** The SIM check where the step needs one, then the temp token, written by `q`. */
export async function afterProof(
  d: ProvenStepDeps,
  q: Queryable,
  step: { phone: string; purpose: PublicPurpose; provenBy?: string },
): Promise<TempTokenAnswer> {
  const risk = d.phoneRisk;
  const guardedStep = risk?.guards(step.purpose) ? step.purpose : undefined;
  const accountId = risk && guardedStep ? await risk.beforeCodeStep(step.phone, guardedStep) : undefined;
  const token = d.random.token(32);
  await writeTempToken(d, q, token, step);
  if (risk && accountId) await risk.proven(accountId);
  return { verified: true, temp_token: token, expires_in: TEMP_TOKEN_TTL_SECONDS };
}
