import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, errors, exportJWK, type JWK } from 'jose';
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { type SigningKeyRow, signingKeysRepo } from '../../storage/repositories/signing-keys.ts';
import type { PurposeKeys } from '../purpose-keys.ts';
import { isSigningAlg, newKeyPair, SIGNING_ALGS, type SigningAlg } from './signing-algorithms.ts';

/** How often each instance looks for a key another instance rotated in. */
export const KEY_RELOAD_SECONDS = 60;
/** How long a verifier may keep the JWKS document (its `Cache-Control: max-age`). */
export const JWKS_MAX_AGE_SECONDS = 300;
/**
 * A key rotated in is published this long before it signs: a JWKS fetched before it appeared has expired
 * from every cache that honours max-age, and every instance has reloaded (twice the interval, as below).
 */
export const NEXT_KEY_PUBLISHED_SECONDS = JWKS_MAX_AGE_SECONDS + 2 * KEY_RELOAD_SECONDS;
/**
 * A retired key stays in JWKS until every token it signed has expired: the longest lifetime (1 h),
 * plus the time other instances may still sign with it before they reload, plus a margin.
 */
export const RETIRED_KEY_PUBLISHED_SECONDS = 3600 + 2 * KEY_RELOAD_SECONDS;

interface PublishedKey {
  jwk: JWK;
  alg: SigningAlg;
  publicKey: KeyObject;
}

/** A key that signs now or will, from `signsFrom` (ms) until a key of its algorithm that starts later does. */
interface SignerKey {
  kid: string;
  alg: SigningAlg;
  privateKey: KeyObject;
  signsFrom: number;
}

type NewKey = { alg: SigningAlg; publicKey: KeyObject; privateKey: KeyObject };

/** A new key of every algorithm, made side by side. */
const newKeys = (algs: readonly SigningAlg[]): Promise<NewKey[]> =>
  Promise.all(algs.map(async (alg) => ({ alg, ...(await newKeyPair(alg)) })));

/**
 * A key of each signing algorithm (signing-algorithms.ts): `kid` = RFC 7638 thumbprint, private half
 * encrypted at rest with the key-encryption key. Of an algorithm's keys whose time to sign has come, the one
 * that started last signs (P97: every instance switches at the time written in the rows, reloaded since or
 * not); every published key verifies, for its own algorithm only.
 */
export class KeyRing {
  #published = new Map<string, PublishedKey>();
  /** latest start first */
  #signers: SignerKey[] = [];
  #lastReload = 0;
  #reloading: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly encryptionKeys: PurposeKeys,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates the first key of each algorithm that has none (once, even when instances start together), then
   * loads. A deployment from before an algorithm came gets its key at the next start.
   */
  async load(): Promise<void> {
    const now = this.clock.now();
    const missing = (rows: SigningKeyRow[]) =>
      SIGNING_ALGS.filter((alg) => !rows.some((k) => !k.retired_at && k.alg === alg));
    const lacking = missing(await signingKeysRepo.published(this.db, now));
    if (lacking.length > 0) {
      const made = await newKeys(lacking);
      await this.db.transaction(async (tx) => {
        await signingKeysRepo.lockForChange(tx);
        const still = missing(await signingKeysRepo.published(tx, now));
        // A first key signs at once: no verifier can have cached a JWKS without it.
        for (const key of made.filter((k) => still.includes(k.alg))) await this.insert(tx, key, now, now);
      });
    }
    await this.reload();
  }

  /**
   * A new signing key; the old one keeps verifying until its tokens have expired. Published at
   * once, signing from `signs_from`, NEXT_KEY_PUBLISHED_SECONDS on (or at once with `immediate`, for a key
   * that must stop signing now: verifiers that cached the JWKS then refuse new tokens until they fetch it
   * again); the keys before it sign until then.
   */
  async rotate({ immediate = false } = {}): Promise<{
    kid: string;
    signs_from: string;
    keys: { alg: SigningAlg; kid: string }[];
  }> {
    const made = await newKeys(SIGNING_ALGS);
    const now = this.clock.now();
    const signsFrom = immediate ? now : addSeconds(now, NEXT_KEY_PUBLISHED_SECONDS);
    const keys = await this.db.transaction(async (tx) => {
      await signingKeysRepo.lockForChange(tx);
      await signingKeysRepo.retireAll(tx, signsFrom, addSeconds(signsFrom, RETIRED_KEY_PUBLISHED_SECONDS));
      const kids = [];
      for (const key of made) kids.push({ alg: key.alg, kid: await this.insert(tx, key, now, signsFrom) });
      return kids;
    });
    await this.reload();
    const rs256 = keys.find((k) => k.alg === 'RS256') as { kid: string };
    return { kid: rs256.kid, signs_from: signsFrom.toISOString(), keys };
  }

  /** Picks up rotations made by other instances. */
  startAutoReload(): void {
    this.#timer = setInterval(() => {
      this.reload().catch(() => {});
    }, KEY_RELOAD_SECONDS * 1000);
    this.#timer.unref();
  }

  stopAutoReload(): void {
    clearInterval(this.#timer);
  }

  private async insert(
    tx: Parameters<typeof signingKeysRepo.insert>[0],
    { alg, publicKey, privateKey }: NewKey,
    now: Date,
    signsFrom: Date,
  ): Promise<string> {
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const der = privateKey.export({ type: 'pkcs8', format: 'der' });
    await signingKeysRepo.insert(tx, {
      kid,
      alg,
      public_jwk: { ...jwk, kid, use: 'sig', alg },
      private_key_enc: this.encryptionKeys.seal(der),
      created_at: now,
      signs_from: signsFrom,
    });
    return kid;
  }

  private async reload(): Promise<void> {
    const now = this.clock.now();
    // A key of an algorithm this version does not know (written by a later one) is left alone.
    const rows = (await signingKeysRepo.published(this.db, now)).filter(
      (r): r is SigningKeyRow & { alg: SigningAlg } => isSigningAlg(r.alg),
    );
    // A key already retired signs no more: its private half is not even decrypted.
    const signers = rows
      .filter((r) => !r.retired_at || r.retired_at > now)
      .map((r) => ({
        kid: r.kid,
        alg: r.alg,
        privateKey: this.#signers.find((s) => s.kid === r.kid)?.privateKey ?? this.privateKeyOf(r),
        signsFrom: r.signs_from.getTime(),
      }))
      .sort((a, b) => b.signsFrom - a.signsFrom);
    for (const alg of SIGNING_ALGS)
      if (!signers.some((s) => s.alg === alg)) throw new Error(`no active ${alg} signing key`);
    this.#published = new Map(
      rows.map((r) => [
        r.kid,
        {
          jwk: r.public_jwk,
          alg: r.alg,
          publicKey: createPublicKey({ key: r.public_jwk, format: 'jwk' }),
        },
      ]),
    );
    this.#signers = signers;
    this.#lastReload = now.getTime();
  }

  private privateKeyOf(row: SigningKeyRow): KeyObject {
    let der: Buffer;
    try {
      der = this.encryptionKeys.open(row.private_key_enc);
    } catch {
      throw new Error(
        `signing key ${row.kid} cannot be decrypted: KEY_ENCRYPTION_KEY is not the one it was stored with; to change that key, set the previous one as KEY_ENCRYPTION_KEY_FALLBACK (P99)`,
      );
    }
    return createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  }

  /**
   * The algorithm's key that signs now (P97: chosen by the clock, so a key rotated in starts on time
   * everywhere). By a clock behind the one that wrote the keys, none may have started yet: then the earliest.
   */
  signingKey(alg: SigningAlg = 'RS256'): { kid: string; alg: SigningAlg; privateKey: KeyObject } {
    const now = this.clock.now().getTime();
    const ofAlg = this.#signers.filter((s) => s.alg === alg);
    const key = ofAlg.find((s) => s.signsFrom <= now) ?? ofAlg.at(-1);
    if (!key) throw new Error('KeyRing.load() was not called');
    return key;
  }

  /**
   * A kid we do not know may come from a key another instance just created (P97 publishes a rotated key
   * minutes ahead; an immediate rotation does not): look again, at most every 5 s, one look for all the
   * requests that meet unknown kids meanwhile.
   */
  async publicKey(kid: string | undefined): Promise<{ alg: SigningAlg; publicKey: KeyObject } | undefined> {
    if (!kid) return undefined;
    if (!this.#published.has(kid) && this.clock.now().getTime() - this.#lastReload > 5000) {
      this.#reloading ??= this.reload().finally(() => {
        this.#reloading = undefined;
      });
      await this.#reloading;
    }
    return this.#published.get(kid);
  }

  /**
   * The key that checks a token of ours (jose's key lookup): the public key its kid names, a retired one too
   * while it is published, for the algorithm it was made for only. A token naming an RS256 key's kid with
   * PS256 is refused.
   */
  verificationKey = async (header: { kid?: string; alg?: string }): Promise<KeyObject> => {
    const key = await this.publicKey(header.kid);
    if (!key || key.alg !== header.alg) throw new errors.JWKSNoMatchingKey();
    return key.publicKey;
  };

  jwks(): { keys: JWK[] } {
    return { keys: [...this.#published.values()].map((k) => k.jwk) };
  }
}
