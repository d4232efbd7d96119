import type { ClientRow } from '../../../storage/repositories/clients.ts';
import type { DeviceAuthorizations } from '../device-authorizations.ts';
import { OAuthError } from '../oauth-error.ts';
import type { TokenRequestContext, TokenResponse } from './access-response.ts';
import { type AuthorizationCodeGrantDeps, tokensOfCode } from './authorization-code.ts';

/** The device_code grant's parameter (RFC 8628 §3.4). */
export interface DeviceCodeParams {
  deviceCode: string;
}

export function deviceCodeParameters(body: Record<string, unknown>): DeviceCodeParams {
  const { device_code: deviceCode } = body;
  if (typeof deviceCode !== 'string' || !deviceCode)
    throw new OAuthError('invalid_request', 'device_code is required');
  return { deviceCode };
}

export interface DeviceCodeGrantDeps extends AuthorizationCodeGrantDeps {
  /** device requests and their polls */
  deviceAuthorizations: DeviceAuthorizations;
}

/**
 * RFC 8628 §3.4-3.5: a device's poll. Until the person decides, `authorization_pending` (`slow_down` for a poll
 * that came too soon, which also lengthens the interval); then the tokens of the code the approval holds, once,
 * or `access_denied`; `expired_token` once the device code has expired.
 */
export async function deviceCodeGrant(
  d: DeviceCodeGrantDeps,
  client: ClientRow,
  params: DeviceCodeParams,
  context: TokenRequestContext,
): Promise<TokenResponse> {
  const poll = await d.deviceAuthorizations.poll(params.deviceCode, client.client_id);
  if (!poll.found) throw new OAuthError('invalid_grant', 'unknown device_code');
  if (poll.was === 'redeemed') throw new OAuthError('invalid_grant', 'the device_code was already used');
  if (poll.expired) throw new OAuthError('expired_token', 'the device_code has expired; start again');
  if (poll.was === 'denied') throw new OAuthError('access_denied', 'the user denied the request');
  if (poll.was === 'pending') {
    if (poll.tooSoon)
      throw new OAuthError('slow_down', 'polled sooner than the interval; wait 5 seconds longer from now on');
    throw new OAuthError('authorization_pending', 'the user has not yet allowed or denied the request');
  }
  const row = poll.codeHash ? await d.codeExchanges.find(poll.codeHash) : undefined;
  if (!row) throw new OAuthError('invalid_grant', 'the device_code was already used');
  return tokensOfCode(d, client, row, context, () => {
    throw new OAuthError('invalid_grant', 'the device_code was already used');
  });
}
