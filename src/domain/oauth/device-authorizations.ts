import { addSeconds, type Clock } from '../../providers/clock.ts';
import type { Random } from '../../providers/random.ts';
import type { Database } from '../../storage/db.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import {
  type DeviceAuthorizationRow,
  deviceAuthorizationsRepo,
} from '../../storage/repositories/device-authorizations.ts';
import {
  type DevicePoll,
  decideDeviceAuthorization,
  pollDeviceCode,
} from '../../storage/rules/device-authorizations.ts';
import { DEVICE_CODE_GRANT } from '../clients/client-rules.ts';
import { personScopesOf } from '../clients/client-scopes.ts';
import { sha256 } from '../crypto.ts';
import type { AuthorizationService, SignedIn } from './authorization.ts';
import type { AuthorizationRequest } from './authorization-request.ts';
import { OAuthError } from './oauth-error.ts';
import { newUserCode, normalUserCode, userCodeHash } from './user-codes.ts';

/** RFC 8628 §3.2: how many seconds a device waits between polls, until it is told to slow down. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;

/** Thrown to undo the code of an approval that came too late. */
const ALREADY_DECIDED = new Error('the device request was decided already');

/** RFC 8628 §3.2: what the device authorization endpoint answers. */
export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export interface DeviceAuthorizationsDeps {
  db: Database;
  clock: Clock;
  random: Random;
  /** issues the authorization code an approval holds for the device */
  authorization: Pick<AuthorizationService, 'issueCode'>;
  /** DEVICE_CODE_TTL: how long a device code lives, in seconds */
  ttlSeconds: number;
  /** the verification page's URL, shown on the device */
  verificationUri: string;
}

/**
 * The device authorization grant (RFC 8628): a device without a keyboard or browser asks to sign in, shows a
 * user code, and polls; the person types the code on the verification page, signs in there and allows or
 * denies. An allowed request holds an authorization code, which the device's poll redeems as the
 * authorization_code grant would, with the same checks of the account and consent.
 */
export class DeviceAuthorizations {
  constructor(private readonly d: DeviceAuthorizationsDeps) {}

  /** RFC 8628 §3.1-3.2: a new request of this client for these scopes. */
  async start(client: ClientRow, scope: unknown): Promise<DeviceAuthorizationResponse> {
    if (!client.grant_types.includes(DEVICE_CODE_GRANT))
      throw new OAuthError('unauthorized_client', 'this client may not use the device authorization grant');
    const scopes = typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
    // RFC 6749 §3.3: without a default scope, a request that names none is refused.
    if (!scopes.length) throw new OAuthError('invalid_scope', 'scope is required');
    const allowed = personScopesOf(client.scope);
    if (scopes.some((s) => !allowed.includes(s)))
      throw new OAuthError('invalid_scope', `this client may ask for: ${allowed.join(' ')}`);
    const deviceCode = this.d.random.token(32);
    const now = this.d.clock.now();
    for (;;) {
      const { shown: userCode, hash } = newUserCode(this.d.random);
      const inserted = await deviceAuthorizationsRepo.insert(this.d.db, {
        device_code_hash: sha256(deviceCode),
        user_code_hash: hash,
        client_id: client.client_id,
        scope: [...new Set(scopes)].join(' '),
        interval_seconds: DEVICE_POLL_INTERVAL_SECONDS,
        created_at: now,
        expires_at: addSeconds(now, this.d.ttlSeconds),
      });
      if (!inserted) continue;
      const complete = new URL(this.d.verificationUri);
      complete.searchParams.set('user_code', userCode);
      return {
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: this.d.verificationUri,
        verification_uri_complete: complete.toString(),
        expires_in: this.d.ttlSeconds,
        interval: DEVICE_POLL_INTERVAL_SECONDS,
      };
    }
  }

  /** The pending request a typed user code names; undefined for a wrong, decided or expired one. */
  async pending(typed: string): Promise<DeviceAuthorizationRow | undefined> {
    const normal = normalUserCode(typed);
    if (!normal) return undefined;
    return deviceAuthorizationsRepo.findPendingByUserCode(
      this.d.db,
      userCodeHash(normal),
      this.d.clock.now(),
    );
  }

  /** The authorization request the verification page's sign-in and consent carry for a pending request. */
  requestOf(row: DeviceAuthorizationRow): AuthorizationRequest & { device: string } {
    return {
      clientId: row.client_id,
      redirectUri: this.d.verificationUri,
      scope: row.scope,
      state: '',
      codeChallenge: '',
      nonce: null,
      device: row.device_code_hash,
    };
  }

  /**
   * The person allowed the request: an authorization code of their sign-in is issued and held for the device.
   * False when the request was decided already or expired meanwhile.
   */
  async allow(request: AuthorizationRequest & { device: string }, who: SignedIn): Promise<boolean> {
    const now = this.d.clock.now();
    const expiresAt = addSeconds(now, this.d.ttlSeconds);
    try {
      return await this.d.db.transaction(async (tx) => {
        const code = await this.d.authorization.issueCode(who, request, { expiresAt, q: tx });
        const decision = { allowedWithCode: sha256(code) };
        if (await decideDeviceAuthorization(tx, request.device, decision, now)) return true;
        throw ALREADY_DECIDED;
      });
    } catch (err) {
      if (err === ALREADY_DECIDED) return false;
      throw err;
    }
  }

  /** The person denied the request; false when it was decided already or expired meanwhile. */
  deny(deviceCodeHash: string): Promise<boolean> {
    return decideDeviceAuthorization(this.d.db, deviceCodeHash, 'denied', this.d.clock.now());
  }

  /** One poll of a device code by the client it was issued to (storage/rules/device-authorizations.ts). */
  poll(deviceCode: string, clientId: string): Promise<DevicePoll> {
    return pollDeviceCode(this.d.db, sha256(deviceCode), clientId, this.d.clock.now());
  }
}
