// Who may use an access token at a resource (/oauth/userinfo, /api/v1): RFC 6750 and RFC 9449 §7.
//
// Rules it enforces:
// - A token bound to a DPoP key (`cnf.jkt`) is used only as `Authorization: DPoP`, with one proof of that
//   very key for this request, naming the token (`ath`); as a bearer token it is refused, so a stolen
//   token is worth nothing without the key.
// - A token not bound to a key is used only as a bearer token: `DPoP` with it is refused, so a client
//   never believes a token protected that is not.
import type { AccessClaims } from '../sessions/access-tokens.ts';
import type { Dpop } from './dpop.ts';
import { OAuthError } from './oauth-error.ts';

/** An access token as a request to a resource presented it, with what its DPoP proof must name. */
export interface PresentedToken {
  scheme: 'Bearer' | 'DPoP';
  token: string;
  /** the DPoP header: one proof (several are refused) */
  proof?: string | string[];
  method: string;
  url: string;
}

export async function provePossession(
  dpop: Dpop,
  claims: Pick<AccessClaims, 'cnf'>,
  presented: PresentedToken,
) {
  const jkt = claims.cnf?.jkt;
  if (!jkt) {
    if (presented.scheme === 'DPoP')
      throw new OAuthError(
        'invalid_token',
        'this access token is not bound to a DPoP key: send it as Bearer',
      );
    return;
  }
  if (presented.scheme !== 'DPoP')
    throw new OAuthError(
      'invalid_token',
      'this access token is bound to a DPoP key: send it as DPoP, with a proof',
    );
  if (Array.isArray(presented.proof)) throw new OAuthError('invalid_dpop_proof', 'send one DPoP header');
  if (!presented.proof)
    throw new OAuthError('invalid_dpop_proof', 'a DPoP proof is required with this token');
  await dpop.verify(presented.proof, {
    method: presented.method,
    url: presented.url,
    accessToken: presented.token,
    jkt,
  });
}
