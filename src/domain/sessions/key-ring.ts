import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject, sign } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';
import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { type SigningKeyRow, signingKeysRepo } from '../../storage/repositories/signing-keys.ts';
import type { PurposeKeys } from '../purpose-keys.ts';

const generateRsa = promisify(generateKeyPair);

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
  publicKey: KeyObject;
}

/** A key that signs now or will, from `signsFrom` (ms) until a key that starts later does. */
interface SignerKey {
  kid: string;
  privateKey: KeyObject;
  signsFrom: number;
}

/**
 * RS256 keys: RSA-2048, `kid` = RFC 7638 thumbprint, private half encrypted at rest with the
 * key-encryption key. Of the keys whose time to sign has come, the one that started last signs (P97: every
 * instance switches at the time written in the rows, reloaded since or not); every published key verifies.
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

  /** Creates the first key if there is none (once, even when instances start together), then loads. */
  async load(): Promise<void> {
    const now = this.clock.now();
    if (!(await signingKeysRepo.published(this.db, now)).some((k) => !k.retired_at)) {
      const { publicKey, privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
      await this.db.transaction(async (tx) => {
        await signingKeysRepo.lockForChange(tx);
        if ((await signingKeysRepo.published(tx, now)).some((k) => !k.retired_at)) return;
        // The first key signs at once: no verifier can have cached a JWKS without it.
        await this.insert(tx, publicKey, privateKey, now, now);
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
  async rotate({ immediate = false } = {}): Promise<{ kid: string; signs_from: string }> {
    const { publicKey, privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
    const now = this.clock.now();
    const signsFrom = immediate ? now : addSeconds(now, NEXT_KEY_PUBLISHED_SECONDS);
    const kid = await this.db.transaction(async (tx) => {
      await signingKeysRepo.lockForChange(tx);
      await signingKeysRepo.retireAll(tx, signsFrom, addSeconds(signsFrom, RETIRED_KEY_PUBLISHED_SECONDS));
      return this.insert(tx, publicKey, privateKey, now, signsFrom);
    });
    await this.reload();
    return { kid, signs_from: signsFrom.toISOString() };
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
    publicKey: KeyObject,
    privateKey: KeyObject,
    now: Date,
    signsFrom: Date,
  ): Promise<string> {
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const der = privateKey.export({ type: 'pkcs8', format: 'der' });
    await signingKeysRepo.insert(tx, {
      kid,
      public_jwk: { kty: jwk.kty, kid, use: 'sig', alg: 'RS256', n: jwk.n, e: jwk.e },
      private_key_enc: this.encryptionKeys.seal(der),
      created_at: now,
      signs_from: signsFrom,
    });
    return kid;
  }

  private async reload(): Promise<void> {
    const now = this.clock.now();
    const rows = await signingKeysRepo.published(this.db, now);
    // A key already retired signs no more: its private half is not even decrypted.
    const signers = rows
      .filter((r) => !r.retired_at || r.retired_at > now)
      .map((r) => ({
        kid: r.kid,
        privateKey: this.#signers.find((s) => s.kid === r.kid)?.privateKey ?? this.privateKeyOf(r),
        signsFrom: r.signs_from.getTime(),
      }))
      .sort((a, b) => b.signsFrom - a.signsFrom);
    if (signers.length === 0) throw new Error('no active signing key');
    this.#published = new Map(
      rows.map((r) => [
        r.kid,
        { jwk: r.public_jwk, publicKey: createPublicKey({ key: r.public_jwk, format: 'jwk' }) },
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
   * The key that signs now (P97: chosen by the clock, so a key rotated in starts on time everywhere). By a
   * clock behind the one that wrote the keys, none may have started yet: then the earliest signs.
   */
  signingKey(): { kid: string; privateKey: KeyObject } {
    const now = this.clock.now().getTime();
    const key = this.#signers.find((s) => s.signsFrom <= now) ?? this.#signers.at(-1);
    if (!key) throw new Error('KeyRing.load() was not called');
    return key;
  }

  /**
   * A kid we do not know may come from a key another instance just created (P97 publishes a rotated key
   * minutes ahead; an immediate rotation does not): look again, at most every 5 s, one look for all the
   * requests that meet unknown kids meanwhile.
   */
  async publicKey(kid: string | undefined): Promise<KeyObject | undefined> {
    if (!kid) return undefined;
    if (!this.#published.has(kid) && this.clock.now().getTime() - this.#lastReload > 5000) {
      this.#reloading ??= this.reload().finally(() => {
        this.#reloading = undefined;
      });
      await this.#reloading;
    }
    return this.#published.get(kid)?.publicKey;
  }

  jwks(): { keys: JWK[] } {
    return { keys: [...this.#published.values()].map((k) => k.jwk) };
  }
}

const base64urlJson = (value: Record<string, unknown>) =>
  Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * An RS256 JWS in compact serialization (RFC 7515 §7.1; RS256 is RSASSA-PKCS1-v1_5 with SHA-256, RFC
 * 7518 §3.3), signed on the calling thread by node's OpenSSL, which is what jose's WebCrypto signature runs
 * too. jose hands each signature to the libuv pool: a job, a thread woken and one waking the event loop
 * again, about 0.04 CPU ms a signature more, a sixth of what the signature itself costs on a host whose
 * OpenSSL signs with AVX-512 IFMA. jose still verifies every token and exports the keys.
 */
export function signRs256Jwt(
  header: { kid: string; typ: 'JWT' | 'logout+jwt' },
  payload: Record<string, unknown>,
  privateKey: KeyObject,
): string {
  const input = `${base64urlJson({ alg: 'RS256', ...header })}.${base64urlJson(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}
