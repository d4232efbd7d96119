// The clients room: the applications that use Callsign. It owns OAuth client registration and its rules,
// their branding and logos, server API keys, back-channel logout records, and the apps a user has allowed.
import type { Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import { type ApiKeyRow, apiKeysRepo } from '../../storage/repositories/api-keys.ts';
import { backchannelLogoutsRepo, type LogoutRow } from '../../storage/repositories/backchannel-logouts.ts';
import { type ClientRow, clientsRepo } from '../../storage/repositories/clients.ts';
import { consentsRepo } from '../../storage/repositories/consents.ts';
import { sessionsRepo } from '../../storage/repositories/sessions.ts';
import { rollClientSecret } from '../../storage/rules/client-secret-roll.ts';
import { safeEqual, sha256 } from '../crypto.ts';
import { DomainError, fieldError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { parseSendLogPage } from '../paging.ts';
import type { SessionService } from '../sessions/sessions.ts';
import { BRANDING_FIELDS } from './client-branding.ts';
import { CLIENT_KEY_FIELDS } from './client-keys.ts';
import { newClientId, parseClientSpec, SECRET_METHODS, webOrigins } from './client-rules.ts';
import type { LogoService } from './logos.ts';

export interface ClientDeps {
  db: Database;
  clock: Clock;
  random: Random;
  sessions: SessionService;
  /** Whether a back-channel logout URI or a logo may be http or a private address */
  allowPrivateNetworks: boolean;
  logos: LogoService;
  /** the account page's built-in client (account-page-client.ts) */
  accountPage?: ClientRow;
}

/** The longest an old secret may keep working after a roll: a week, for the slowest deployment. */
export const MAX_SECRET_GRACE_SECONDS = 7 * 24 * 3600;

const notFound = (what: string) => new DomainError('NOT_FOUND', `no such ${what}`);

/** A public client stays public and a confidential one confidential; between secret and key, either way. */
function assertMethodChange(from: string, to: string) {
  if ((from === 'none') !== (to === 'none'))
    throw fieldError(
      'INVALID_REQUEST',
      'token_endpoint_auth_method',
      'a public client cannot become confidential, nor the reverse: register a new client',
    );
}

/**
 * How long a process answers the OAuth endpoints from a client row it has read. Changes made through
 * this process apply at once; another process (WEB_CONCURRENCY, a second instance) sees them this much later
 * at most. Unknown ids are not remembered, so made-up ones can't fill the memory.
 */
export const CLIENT_CACHE_SECONDS = 5;

/** Client applications and server API keys. Secrets are shown once and stored hashed. */
export class ClientService {
  #cache = new Map<string, { client: ClientRow; until: number }>();
  #origins: { origins: Set<string>; until: number } | undefined;

  constructor(private readonly d: ClientDeps) {}

  async createClient(
    body: Record<string, unknown>,
  ): Promise<{ client: ClientRow; client_secret: string | null }> {
    const spec = parseClientSpec(body, this.d);
    const logo_image = spec.logo_uri ? await this.d.logos.fetchLogo(spec.logo_uri, 'logo_uri') : null;
    // A client that authenticates by key has no secret to be given.
    const secret = SECRET_METHODS.includes(spec.token_endpoint_auth_method) ? this.d.random.token(32) : null;
    const client = await clientsRepo.insert(this.d.db, {
      ...spec,
      logo_image,
      client_id: newClientId((n) => this.d.random.token(n)),
      client_secret_hash: secret ? sha256(secret) : null,
      created_at: this.d.clock.now(),
    });
    this.#origins = undefined;
    return { client, client_secret: secret };
  }

  listClients(): Promise<ClientRow[]> {
    return clientsRepo.listLive(this.d.db);
  }

  /** A live client for the OAuth endpoints, from memory for up to CLIENT_CACHE_SECONDS. */
  async findClient(clientId: string): Promise<ClientRow | undefined> {
    if (this.d.accountPage && clientId === this.d.accountPage.client_id) return this.d.accountPage;
    const now = this.d.clock.now().getTime();
    const cached = this.#cache.get(clientId);
    if (cached && cached.until > now) return cached.client;
    const client = await clientsRepo.findLive(this.d.db, clientId);
    if (client) this.#cache.set(clientId, { client, until: now + CLIENT_CACHE_SECONDS * 1000 });
    else this.#cache.delete(clientId);
    return client;
  }

  /**
   * Whether a browser app on this origin may read the answers of the OAuth endpoints: it is the origin
   * of a live client's redirect URI. Remembered like clients, and forgotten on any change here.
   */
  async isWebOrigin(origin: string): Promise<boolean> {
    const now = this.d.clock.now().getTime();
    if (!this.#origins || this.#origins.until <= now) {
      const clients = await clientsRepo.listLive(this.d.db);
      const origins = new Set(clients.flatMap((client) => webOrigins(client.redirect_uris)));
      this.#origins = { origins, until: now + CLIENT_CACHE_SECONDS * 1000 };
    }
    return this.#origins.origins.has(origin);
  }

  async getClient(clientId: string): Promise<ClientRow> {
    const client = await clientsRepo.findLive(this.d.db, clientId);
    if (!client) throw notFound('client');
    return client;
  }

  /**
   * Name, redirect URIs, scopes, grant types, the first-party flag, the back-channel logout URI (null
   * removes it, P109), the post-logout redirect URIs, the branding and the keys change; the authentication
   * method changes between the confidential ones only (public or not decides whether there is a secret).
   * Tokens already issued keep the scopes they were granted.
   */
  async updateClient(clientId: string, body: Record<string, unknown>): Promise<ClientRow> {
    const current = await this.getClient(clientId);
    const spec = parseClientSpec(
      {
        client_name: current.client_name,
        redirect_uris: current.redirect_uris,
        grant_types: current.grant_types,
        scope: current.scope,
        first_party: current.first_party,
        backchannel_logout_uri: current.backchannel_logout_uri,
        post_logout_redirect_uris: current.post_logout_redirect_uris,
        ...Object.fromEntries(BRANDING_FIELDS.map((field) => [field, current[field]])),
        ...Object.fromEntries(CLIENT_KEY_FIELDS.map((field) => [field, current[field]])),
        ...body,
        token_endpoint_auth_method: body.token_endpoint_auth_method ?? current.token_endpoint_auth_method,
      },
      this.d,
    );
    assertMethodChange(current.token_endpoint_auth_method, spec.token_endpoint_auth_method);
    // A logo is fetched once: again only when its address changes.
    const logo_image =
      spec.logo_uri === current.logo_uri
        ? current.logo_image
        : spec.logo_uri && (await this.d.logos.fetchLogo(spec.logo_uri, 'logo_uri'));
    const updated = await clientsRepo.update(this.d.db, clientId, { ...spec, logo_image });
    this.#cache.delete(clientId);
    this.#origins = undefined;
    if (!updated) throw notFound('client');
    return updated;
  }

  /** The client's back-channel logouts, newest first, filtered and paged as webhook deliveries. */
  async backchannelLogouts(clientId: string, query: { status?: unknown; before?: unknown; limit?: unknown }) {
    await this.getClient(clientId);
    return backchannelLogoutsRepo.listOfClient(this.d.db, clientId, parseSendLogPage(query));
  }

  /**
   * An operator sends a logout again (its client was down past the last retry), on a fresh schedule.
   * A logout of a deleted client is not found: it is never sent.
   */
  async replayBackchannelLogout(id: string): Promise<LogoutRow> {
    const logout = isUuid(id)
      ? await backchannelLogoutsRepo.replay(this.d.db, id, this.d.clock.now())
      : undefined;
    if (!logout) throw notFound('back-channel logout');
    return logout;
  }

  /** A deleted client's sessions end with it (reason admin, D34), so none of its tokens outlive it. */
  async deleteClient(clientId: string): Promise<void> {
    await this.d.db.transaction(async (tx) => {
      if (!(await clientsRepo.markDeleted(tx, clientId, this.d.clock.now()))) throw notFound('client');
      for (const id of await sessionsRepo.activeIdsOfClient(tx, clientId))
        await this.d.sessions.revoke(tx, id, 'admin');
      await consentsRepo.removeAllOfClient(tx, clientId); // no consent outlives its application
    });
    this.#cache.delete(clientId);
    this.#origins = undefined;
  }

  /**
   * RFC 6749 §2.3.1: a confidential client's secret, compared in constant time; after a roll with a grace, the
   * secret before it too, until the grace ends.
   */
  secretMatches(client: ClientRow, secret: string): boolean {
    const given = sha256(secret);
    if (client.client_secret_hash !== null && safeEqual(given, client.client_secret_hash)) return true;
    const graceRuns =
      client.previous_secret_expires_at !== null && client.previous_secret_expires_at > this.d.clock.now();
    return graceRuns && client.previous_secret_hash !== null && safeEqual(given, client.previous_secret_hash);
  }

  /** A new secret for a confidential client, shown once; the old one works for `graceSeconds` (0: stops now). */
  async rollSecret(clientId: string, graceSeconds: unknown): Promise<{ client: ClientRow; secret: string }> {
    const grace = graceSeconds === undefined ? 0 : graceSeconds;
    if (
      typeof grace !== 'number' ||
      !Number.isInteger(grace) ||
      grace < 0 ||
      grace > MAX_SECRET_GRACE_SECONDS
    )
      throw fieldError(
        'INVALID_REQUEST',
        'grace_seconds',
        `grace_seconds must be 0-${MAX_SECRET_GRACE_SECONDS}`,
      );
    const secret = this.d.random.token(32);
    const now = this.d.clock.now();
    const graceUntil = grace > 0 ? new Date(now.getTime() + grace * 1000) : null;
    const client = await rollClientSecret(this.d.db, clientId, sha256(secret), graceUntil);
    this.#cache.delete(clientId);
    if (client) return { client, secret };
    const exists = await this.findClient(clientId);
    if (!exists) throw notFound('client');
    throw new DomainError('INVALID_REQUEST', 'a public client has no secret to roll');
  }

  async createApiKey(name: string): Promise<{ key: ApiKeyRow; secret: string }> {
    if (!name.trim() || name.length > 100) {
      throw new DomainError('INVALID_REQUEST', 'name must be 1-100 characters', { field: 'name' });
    }
    const secret = `csk_${this.d.random.token(32)}`;
    const key = await apiKeysRepo.insert(this.d.db, {
      id: this.d.random.uuid(),
      name: name.trim(),
      prefix: secret.slice(0, 12),
      key_hash: sha256(secret),
      created_at: this.d.clock.now(),
    });
    return { key, secret };
  }

  listApiKeys(): Promise<ApiKeyRow[]> {
    return apiKeysRepo.list(this.d.db);
  }

  async revokeApiKey(id: string): Promise<void> {
    if (!isUuid(id) || !(await apiKeysRepo.revoke(this.d.db, id, this.d.clock.now())))
      throw notFound('API key');
  }

  /** A live key, by the bearer credential presented; undefined for anything else. */
  authenticateApiKey(secret: string): Promise<ApiKeyRow | undefined> {
    return apiKeysRepo.use(this.d.db, sha256(secret), this.d.clock.now());
  }
}
