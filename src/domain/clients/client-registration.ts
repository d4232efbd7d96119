import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import { type ClientRow, clientsRepo } from '../../storage/repositories/clients.ts';
import { initialAccessTokensRepo } from '../../storage/repositories/initial-access-tokens.ts';
import { useInitialAccessToken } from '../../storage/rules/initial-access-tokens.ts';
import { safeEqual, sha256 } from '../crypto.ts';
import { DomainError, fieldError } from '../errors.ts';
import { OAuthError } from '../oauth/oauth-error.ts';
import { DEVICE_CODE_GRANT, webOrigins } from './client-rules.ts';
import type { ClientService } from './clients.ts';

/** An initial access token lives a day unless asked otherwise, and at most 30 days. */
export const INITIAL_TOKEN_DEFAULT_SECONDS = 86_400;
export const INITIAL_TOKEN_MAX_SECONDS = 30 * 86_400;
export const INITIAL_TOKEN_MAX_USES = 1000;
/** What a registration may not set: the operator's alone, or the registration's own. */
const NOT_REGISTERED = ['first_party', 'client_id', 'client_secret', 'registration_access_token'];

export interface ClientRegistrationDeps {
  db: Database;
  clock: Clock;
  random: Random;
  clients: ClientService;
  /** OPEN_CLIENT_REGISTRATION: public clients register without an initial access token */
  openRegistration: boolean;
}

/** A registration as answered: the client, its secret (shown once) and the token that manages it. */
export interface Registration {
  client: ClientRow;
  client_secret: string | null;
  registration_access_token?: string;
}

/** RFC 7591 §3.2.2: a metadata problem, named as the protocol names it. */
function metadataError(err: unknown): never {
  if (!(err instanceof DomainError) || err.code !== 'INVALID_REQUEST') throw err;
  const field = String(err.details.field ?? '');
  const redirect = field.startsWith('redirect_uris') || field.startsWith('post_logout_redirect_uris');
  throw new OAuthError(redirect ? 'invalid_redirect_uri' : 'invalid_client_metadata', err.message);
}

const bounded = (value: unknown, field: string, fallback: number, max: number) => {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max)
    throw fieldError('INVALID_REQUEST', field, `${field} must be a whole number, 1-${max}`);
  return value;
};

/**
 * Dynamic client registration (RFC 7591) and its management (RFC 7592): a client registers itself with an
 * initial access token an operator gave, or, with OPEN_CLIENT_REGISTRATION, as a public client of a native
 * or loopback app without one; it never skips consent. Its registration access token (stored hashed)
 * reads, changes and deletes what it registered.
 */
export class ClientRegistration {
  constructor(private readonly d: ClientRegistrationDeps) {}

  /** An operator's initial access token: good for `uses` registrations within `expires_in` seconds. */
  async createInitialAccessToken(body: { expires_in?: unknown; uses?: unknown }) {
    const seconds = bounded(
      body.expires_in,
      'expires_in',
      INITIAL_TOKEN_DEFAULT_SECONDS,
      INITIAL_TOKEN_MAX_SECONDS,
    );
    const uses = bounded(body.uses, 'uses', 1, INITIAL_TOKEN_MAX_USES);
    const token = `cit_${this.d.random.token(32)}`;
    const now = this.d.clock.now();
    const expiresAt = addSeconds(now, seconds);
    await initialAccessTokensRepo.insert(this.d.db, {
      token_hash: sha256(token),
      created_at: now,
      expires_at: expiresAt,
      uses_left: uses,
    });
    return { token, expires_at: expiresAt, uses };
  }

  /** RFC 7591 §3: a registration, by an initial access token, or open where allowed. */
  async register(initialToken: string | undefined, body: Record<string, unknown>): Promise<Registration> {
    if (initialToken) {
      if (!(await useInitialAccessToken(this.d.db, sha256(initialToken), this.d.clock.now())))
        throw new OAuthError('invalid_token', 'the initial access token is unknown, expired or used up');
    } else if (!this.d.openRegistration) {
      throw new OAuthError('invalid_token', 'registration needs an initial access token from the operator');
    } else assertOpenRegistration(body);
    const metadata = Object.fromEntries(
      Object.entries(body).filter(([name]) => !NOT_REGISTERED.includes(name)),
    );
    const created = await this.d.clients
      .createClient({ ...metadata, first_party: false })
      .catch(metadataError);
    const registrationToken = `crt_${this.d.random.token(32)}`;
    await clientsRepo.setRegistrationToken(this.d.db, created.client.client_id, sha256(registrationToken));
    return { ...created, registration_access_token: registrationToken };
  }

  /** RFC 7592 §2.1: the client's registration, to the holder of its registration access token. */
  async read(clientId: string, token: string | undefined): Promise<Registration> {
    return { client: await this.registeredClient(clientId, token), client_secret: null };
  }

  /** RFC 7592 §2.2: its metadata changed (what it leaves out keeps its value); never first_party. */
  async update(
    clientId: string,
    token: string | undefined,
    body: Record<string, unknown>,
  ): Promise<Registration> {
    await this.registeredClient(clientId, token);
    if (body.client_id !== clientId)
      throw new OAuthError('invalid_client_metadata', 'client_id must be the client being updated');
    const metadata = Object.fromEntries(
      Object.entries(body).filter(([name]) => !NOT_REGISTERED.includes(name)),
    );
    const client = await this.d.clients.updateClient(clientId, metadata).catch(metadataError);
    return { client, client_secret: null };
  }

  /** RFC 7592 §2.3: the client deleted, with its sessions. */
  async remove(clientId: string, token: string | undefined): Promise<void> {
    await this.registeredClient(clientId, token);
    await this.d.clients.deleteClient(clientId);
  }

  /** The client, if this is its registration access token; invalid_token alike for anything else. */
  private async registeredClient(clientId: string, token: string | undefined): Promise<ClientRow> {
    const client = await clientsRepo.findLive(this.d.db, clientId);
    const hash = client?.registration_access_token_hash;
    if (!client || !hash || !token || !safeEqual(sha256(token), hash))
      throw new OAuthError('invalid_token', "the registration access token is not this client's");
    return client;
  }
}

/**
 * Open registration (no initial access token) is for public clients of native and loopback apps only: no
 * secret is given to whoever asks, and no web origin can be claimed by anyone. Nor the device grant: its user
 * codes are typed wherever someone is told to, so a client named by anyone would phish (RFC 8628 §5.4).
 */
function assertOpenRegistration(body: Record<string, unknown>) {
  if (body.token_endpoint_auth_method !== 'none')
    throw new OAuthError(
      'invalid_client_metadata',
      'without an initial access token only public clients register: token_endpoint_auth_method "none"',
    );
  if (Array.isArray(body.grant_types) && body.grant_types.includes(DEVICE_CODE_GRANT))
    throw new OAuthError(
      'invalid_client_metadata',
      'without an initial access token a client may not register the device authorization grant',
    );
  const uris = Array.isArray(body.redirect_uris)
    ? body.redirect_uris.filter((u) => typeof u === 'string')
    : [];
  const web = (() => {
    try {
      return webOrigins(uris).filter(
        (origin) => !/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(origin),
      );
    } catch {
      return [];
    }
  })();
  if (web.length > 0)
    throw new OAuthError(
      'invalid_redirect_uri',
      'without an initial access token redirect URIs are loopback (http://127.0.0.1) or an app scheme only',
    );
}
