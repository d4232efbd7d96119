import { hmac, safeEqual } from '../crypto.ts';
import { isUuid } from '../ids.ts';
import type { PurposeKeys } from '../purpose-keys.ts';

/** A refresh token as issued: the session it belongs to and its place in that session's chain. */
export interface RefreshToken {
  sessionId: string;
  generation: number;
  /** the whole token, as the client holds it */
  value: string;
}

const SECRET = /^[A-Za-z0-9_-]{43}$/; // 256 bits, base64url
const GENERATION = /^(0|[1-9][0-9]{0,8})$/; // below 10^9: fits the integer column, and a successor still parses

/**
 * `<session id>.<generation>.<secret>.<tag>`. The first secret is 256 random bits; each successor's
 * is an HMAC of its predecessor, so a repeat within the grace window gets the very same new token without
 * it being stored. The tag, an HMAC of the rest, proves the token is ours: an earlier generation of a session
 * is recognised as reuse without the session keeping every token it ever had, and nobody who merely knows a
 * session id (the `sid` of every access token) can forge one to get that session revoked.
 */
export class RefreshTokenCodec {
  /**
   * `successorKeys` and `tagKeys` derive from the same key-encryption keys in the same order: the current
   * key's pair makes every token, and a token tagged by the fallback's pair is still taken.
   */
  constructor(
    private readonly successorKeys: PurposeKeys,
    private readonly tagKeys: PurposeKeys,
  ) {}

  first(sessionId: string, secret: string): RefreshToken {
    return this.make(sessionId, 0, secret);
  }

  successor(t: RefreshToken): RefreshToken {
    return this.successorWith(t, 0);
  }

  /**
   * The successor as each key-encryption key makes it, the current key's first: a repeat within its
   * grace is answered with the successor the first presentation got, though an instance that still made
   * tokens with the fallback rotated it.
   */
  successors(t: RefreshToken): RefreshToken[] {
    return this.successorKeys.all.map((_, k) => this.successorWith(t, k));
  }

  private successorWith(t: RefreshToken, k: number): RefreshToken {
    const secret = hmac(this.successorKeys.all[k], t.value).toString('base64url');
    return this.make(t.sessionId, t.generation + 1, secret, this.tagKeys.all[k]);
  }

  /** The token, if it is well formed and carries our tag; undefined for anything else. */
  parse(value: unknown): RefreshToken | undefined {
    if (typeof value !== 'string' || value.length > 200) return undefined;
    const [sessionId, generation, secret, tag, ...rest] = value.split('.');
    if (rest.length || tag === undefined || !isUuid(sessionId) || !GENERATION.test(generation))
      return undefined;
    const body = `${sessionId}.${generation}.${secret}`;
    if (!SECRET.test(secret) || !this.tagKeys.all.some((key) => safeEqual(tag, this.tag(body, key))))
      return undefined;
    return { sessionId, generation: Number(generation), value };
  }

  private make(
    sessionId: string,
    generation: number,
    secret: string,
    tagKey = this.tagKeys.current,
  ): RefreshToken {
    const body = `${sessionId}.${generation}.${secret}`;
    return { sessionId, generation, value: `${body}.${this.tag(body, tagKey)}` };
  }

  /** 128 bits: enough that a forged tag is never guessed. */
  private tag(body: string, key: Buffer): string {
    return hmac(key, body).subarray(0, 16).toString('base64url');
  }
}
