import { hmac, safeEqual } from './crypto.ts';
import { isUuid } from './ids.ts';

/** A refresh token as issued: the session it belongs to and its place in that session's chain (D16). */
export interface RefreshToken {
  sessionId: string;
  generation: number;
  /** the whole token, as the client holds it */
  value: string;
}

const SECRET = /^[A-Za-z0-9_-]{43}$/; // 256 bits, base64url
const GENERATION = /^(0|[1-9][0-9]{0,8})$/; // below 10^9: fits the integer column, and a successor still parses

/**
 * P59: `<session id>.<generation>.<secret>.<tag>`. The first secret is 256 random bits (D16); each successor's
 * is an HMAC of its predecessor, so a repeat within the grace window gets the very same new token without
 * it being stored. The tag, an HMAC of the rest, proves the token is ours: an earlier generation of a session
 * is recognised as reuse without the session keeping every token it ever had, and nobody who merely knows a
 * session id (the `sid` of every access token) can forge one to get that session revoked.
 */
export class RefreshTokenCodec {
  constructor(
    private readonly successorKey: Buffer,
    private readonly tagKey: Buffer,
  ) {}

  first(sessionId: string, secret: string): RefreshToken {
    return this.make(sessionId, 0, secret);
  }

  successor(t: RefreshToken): RefreshToken {
    return this.make(t.sessionId, t.generation + 1, hmac(this.successorKey, t.value).toString('base64url'));
  }

  /** The token, if it is well formed and carries our tag; undefined for anything else. */
  parse(value: unknown): RefreshToken | undefined {
    if (typeof value !== 'string' || value.length > 200) return undefined;
    const [sessionId, generation, secret, tag, ...rest] = value.split('.');
    if (rest.length || tag === undefined || !isUuid(sessionId) || !GENERATION.test(generation))
      return undefined;
    if (!SECRET.test(secret) || !safeEqual(tag, this.tag(`${sessionId}.${generation}.${secret}`)))
      return undefined;
    return { sessionId, generation: Number(generation), value };
  }

  private make(sessionId: string, generation: number, secret: string): RefreshToken {
    const body = `${sessionId}.${generation}.${secret}`;
    return { sessionId, generation, value: `${body}.${this.tag(body)}` };
  }

  /** 128 bits: enough that a forged tag is never guessed. */
  private tag(body: string): string {
    return hmac(this.tagKey, body).subarray(0, 16).toString('base64url');
  }
}
