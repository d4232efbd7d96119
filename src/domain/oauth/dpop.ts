import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { hmac, safeEqual } from '../crypto.ts';
import type { PurposeKeys } from '../purpose-keys.ts';
import { type ProofExpected, verifyDpopProof } from './dpop-proof.ts';

/** A server nonce is good for the step it was made in and the next: 2 to 4 minutes. */
export const DPOP_NONCE_STEP_SECONDS = 120;

export interface DpopDeps {
  db: Database;
  clock: Clock;
  /** the key nonces are made with (from KEY_ENCRYPTION_KEY, its fallback's too while it changes) */
  nonceKeys: PurposeKeys;
  /** DPOP_NONCE=required: every proof must carry a nonce of ours (RFC 9449 §8, §9) */
  nonceRequired: boolean;
}

/**
 * DPoP (RFC 9449): proofs of possession checked for the token endpoint, PAR and the resources, and the
 * server nonces, made without storage: a step of time and its HMAC, so every instance knows them.
 */
export class Dpop {
  constructor(private readonly d: DpopDeps) {}

  /** The nonce to hand out now (in `DPoP-Nonce`). */
  nonce(): string {
    return this.#nonceOf(this.#step(), this.d.nonceKeys.current);
  }

  #step = () => Math.floor(this.d.clock.now().getTime() / 1000 / DPOP_NONCE_STEP_SECONDS);
  #nonceOf = (step: number, key: Buffer) =>
    `${step.toString(36)}.${hmac(key, `dpop-nonce ${step}`).toString('base64url')}`;

  /** Whether a nonce is one of ours of this step or the one before. */
  #isCurrent = (nonce: unknown): boolean => {
    if (typeof nonce !== 'string') return false;
    const now = this.#step();
    return [now, now - 1].some((step) =>
      this.d.nonceKeys.all.some((key) => safeEqual(nonce, this.#nonceOf(step, key))),
    );
  };

  /** The DPoP header's proof checked for this request; its key's thumbprint. */
  verify(proof: string, expected: ProofExpected): Promise<{ jkt: string }> {
    return verifyDpopProof(
      {
        db: this.d.db,
        clock: this.d.clock,
        nonces: { required: this.d.nonceRequired, isCurrent: this.#isCurrent },
      },
      proof,
      expected,
    );
  }
}
