import { createLocalJWKSet, errors, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import type { Clock } from '../../providers/clock.ts';
import type { OutboundGet } from '../../providers/outbound-get.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { OAuthError } from './oauth-error.ts';

/** How long a client's fetched JWK Set is used before it is fetched again. */
export const CLIENT_JWKS_CACHE_SECONDS = 300;
/**
 * A signature by a `kid` the cached set lacks fetches the set again (the client rotated its key), but not
 * more often than this: a stream of made-up kids costs the client's server one request per interval.
 */
export const CLIENT_JWKS_REFETCH_SECONDS = 10;

type KeyResolver = ReturnType<typeof createLocalJWKSet>;
type Cached = { uri: string; resolve: KeyResolver; fetchedAt: number };

export interface ClientKeySetsDeps {
  clock: Clock;
  /** GETs a jwks_uri under the outbound address rules */
  fetchJwks: OutboundGet;
}

const unusable = (why: string) =>
  new OAuthError('invalid_client', `the client's keys cannot be used: ${why}`);

/**
 * The key a header names. A JWS of `alg: Ed25519` (RFC 9864's fully specified name, which newer libraries
 * send) is verified by a key registered as `EdDSA` too: the same Ed25519 key under its older name.
 */
async function sameKeyUnderEitherName(resolve: KeyResolver, header: JWSHeaderParameters): Promise<CryptoKey> {
  try {
    return (await resolve(header)) as CryptoKey;
  } catch (err) {
    if (!(err instanceof errors.JWKSNoMatchingKey) || header.alg !== 'Ed25519') throw err;
    return (await resolve({ ...header, alg: 'EdDSA' })) as CryptoKey;
  }
}

/** A JWK Set read from a client's jwks_uri; invalid_client when what came back is not one. */
function parseSet(data: Buffer): JSONWebKeySet {
  let set: unknown;
  try {
    set = JSON.parse(data.toString('utf8'));
  } catch {
    throw unusable('jwks_uri did not answer JSON');
  }
  if (!Array.isArray((set as { keys?: unknown })?.keys)) throw unusable('jwks_uri did not answer a JWK Set');
  return set as JSONWebKeySet;
}

/**
 * The public keys a client signs with (its client assertions, its request objects): the registered `jwks`,
 * or the set at its `jwks_uri`, fetched under the outbound address rules, kept for
 * CLIENT_JWKS_CACHE_SECONDS, and fetched again when a signature names a kid it lacks.
 */
export class ClientKeySets {
  #fetched = new Map<string, Cached>();

  constructor(private readonly d: ClientKeySetsDeps) {}

  /** A key resolver for jose's jwtVerify: the client's key that the JWS header names. */
  resolverFor(client: ClientRow): (header: JWSHeaderParameters) => Promise<CryptoKey> {
    if (client.jwks) {
      const local = createLocalJWKSet(client.jwks as JSONWebKeySet);
      return async (header) => sameKeyUnderEitherName(local, header);
    }
    const uri = client.jwks_uri;
    if (!uri) return async () => Promise.reject(unusable('it registered no jwks or jwks_uri'));
    return async (header) => {
      const cached = await this.setOf(client.client_id, uri, false);
      try {
        return await sameKeyUnderEitherName(cached.resolve, header);
      } catch (err) {
        const age = this.d.clock.now().getTime() - cached.fetchedAt;
        if (!(err instanceof errors.JWKSNoMatchingKey) || age < CLIENT_JWKS_REFETCH_SECONDS * 1000) throw err;
        return sameKeyUnderEitherName((await this.setOf(client.client_id, uri, true)).resolve, header);
      }
    };
  }

  private async setOf(clientId: string, uri: string, fresh: boolean): Promise<Cached> {
    const now = this.d.clock.now().getTime();
    const cached = this.#fetched.get(clientId);
    if (!fresh && cached?.uri === uri && now - cached.fetchedAt < CLIENT_JWKS_CACHE_SECONDS * 1000)
      return cached;
    const fetched = await this.d.fetchJwks(uri);
    if ('refused' in fetched) throw unusable(`jwks_uri: ${fetched.refused}`);
    const set = { uri, resolve: createLocalJWKSet(parseSet(fetched.data)), fetchedAt: now };
    this.#fetched.set(clientId, set);
    return set;
  }
}
