// Security Event Tokens (RFC 8417, as SSF 1.0 §4 profiles them), signed with the service's key ring.
//
// Rules it enforces:
// - A SET is typed `secevent+jwt`, so it can pass as no other token of ours; it carries iss, aud (the
//   stream's client), iat, jti (the queued event's id: the same event is the same jti however often it is
//   sent), `sub_id` at the top and exactly one event; no `exp` and no `sub` (RFC 8417 §2.2).
// - It is signed with the client's ID token algorithm, by a published key of the ring.
import type { ClientRow } from '../../storage/repositories/clients.ts';
import type { QueuedEvent } from '../../storage/repositories/ssf-events.ts';
import { signJwt } from '../sessions/access-tokens.ts';
import type { KeyRing } from '../sessions/key-ring.ts';
import { signingAlgOr } from '../sessions/signing-algorithms.ts';
import { securityEventOf } from './event-types.ts';

export const SET_TYPE = 'secevent+jwt';

export class SecurityEventTokens {
  constructor(
    private readonly keys: KeyRing,
    private readonly issuer: string,
  ) {}

  /**
   * The SET of a queued event for the stream's client; undefined for an account event that makes none (it
   * was queued while the stream asked for it, and is acknowledged as sent).
   */
  make(
    e: QueuedEvent,
    client: Pick<ClientRow, 'client_id' | 'id_token_signed_response_alg'>,
    streamId: string,
  ) {
    const made = e.own_event
      ? { subject: { format: 'opaque', id: streamId }, type: e.own_event.type, members: e.own_event.members }
      : this.#accountEvent(e);
    if (!made) return undefined;
    const payload = {
      iss: this.issuer,
      aud: client.client_id,
      iat: Math.floor(e.created_at.getTime() / 1000),
      jti: e.id,
      sub_id: made.subject,
      events: { [made.type]: made.members },
    };
    const alg = signingAlgOr(client.id_token_signed_response_alg);
    const { kid, privateKey } = this.keys.signingKey(alg);
    return signJwt(alg, { kid, typ: SET_TYPE }, payload, privateKey);
  }

  #accountEvent(e: QueuedEvent) {
    const event = e.type ? securityEventOf(e.type, e.data, e.created_at, e.facts) : undefined;
    if (!event) return undefined;
    return {
      subject: event.subject ?? { format: 'iss_sub', iss: this.issuer, sub: event.userId },
      type: event.type,
      members: event.members,
    };
  }
}
