import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, exportJWK, type JWK } from 'jose';
import { addSeconds, type Clock } from '../providers/clock.ts';
import type { Database } from '../storage/db.ts';
import { signingKeysRepo } from '../storage/repositories/signing-keys.ts';
import { decrypt, encrypt } from './crypto.ts';

const generateRsa = promisify(generateKeyPair);

/** How often each instance looks for a key another instance rotated in. */
export const KEY_RELOAD_SECONDS = 60;
/**
 * D25: a retired key stays in JWKS until every token it signed has expired: the longest lifetime (1 h),
 * plus the time other instances may still sign with it before they reload, plus a margin.
 */
export const RETIRED_KEY_PUBLISHED_SECONDS = 3600 + 2 * KEY_RELOAD_SECONDS;

interface PublishedKey {
  jwk: JWK;
  publicKey: KeyObject;
}

/**
 * RS256 keys: RSA-2048, `kid` = RFC 7638 thumbprint, private half encrypted at rest with the
 * key-encryption key. The newest unretired key signs; every published key verifies.
 */
export class KeyRing {
  #published = new Map<string, PublishedKey>();
  #signing: { kid: string; privateKey: KeyObject } | undefined;
  #lastReload = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly encryptionKey: Buffer,
    private readonly clock: Clock,
  ) {}

  /** Creates the first key if there is none (once, even when instances start together), then loads. */
  async load(): Promise<void> {
    const now = this.clock.now();
    if (!(await signingKeysRepo.published(this.db, now)).some((k) => !k.retired_at)) {
      const { publicKey, privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
      await this.db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(724202)');
        if ((await signingKeysRepo.published(tx, now)).some((k) => !k.retired_at)) return;
        await this.insert(tx, publicKey, privateKey, now);
      });
    }
    await this.reload();
  }

  /** D25, D36: a new signing key; the old one keeps verifying until its tokens have expired. */
  async rotate(): Promise<{ kid: string }> {
    const { publicKey, privateKey } = await generateRsa('rsa', { modulusLength: 2048 });
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(724202)');
      await signingKeysRepo.retireAll(tx, now, addSeconds(now, RETIRED_KEY_PUBLISHED_SECONDS));
      await this.insert(tx, publicKey, privateKey, now);
    });
    await this.reload();
    return { kid: this.signingKey().kid };
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
  ) {
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const der = privateKey.export({ type: 'pkcs8', format: 'der' });
    await signingKeysRepo.insert(tx, {
      kid,
      public_jwk: { kty: jwk.kty, kid, use: 'sig', alg: 'RS256', n: jwk.n, e: jwk.e },
      private_key_enc: encrypt(this.encryptionKey, der),
      created_at: now,
    });
  }

  private async reload(): Promise<void> {
    const rows = await signingKeysRepo.published(this.db, this.clock.now());
    this.#published = new Map(
      rows.map((r) => [
        r.kid,
        { jwk: r.public_jwk, publicKey: createPublicKey({ key: r.public_jwk, format: 'jwk' }) },
      ]),
    );
    const active = rows.find((r) => !r.retired_at);
    if (!active) throw new Error('no active signing key');
    if (this.#signing?.kid !== active.kid) {
      let der: Buffer;
      try {
        der = decrypt(this.encryptionKey, active.private_key_enc);
      } catch {
        throw new Error(
          `signing key ${active.kid} cannot be decrypted: KEY_ENCRYPTION_KEY is not the one it was stored with`,
        );
      }
      this.#signing = {
        kid: active.kid,
        privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }),
      };
    }
    this.#lastReload = this.clock.now().getTime();
  }

  signingKey() {
    if (!this.#signing) throw new Error('KeyRing.load() was not called');
    return this.#signing;
  }

  /** A kid we do not know may come from a key another instance just created: look again, at most every 5 s. */
  async publicKey(kid: string | undefined): Promise<KeyObject | undefined> {
    if (!kid) return undefined;
    if (!this.#published.has(kid) && this.clock.now().getTime() - this.#lastReload > 5000)
      await this.reload();
    return this.#published.get(kid)?.publicKey;
  }

  jwks(): { keys: JWK[] } {
    return { keys: [...this.#published.values()].map((k) => k.jwk) };
  }
}
