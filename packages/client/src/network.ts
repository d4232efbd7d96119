// A phone number proven silently by its mobile network, with a code wherever the network cannot say. The app
// opens the start's `url` over the cellular network (not Wi-Fi), then asks for the answer.
import { type SendCodeInput, type SentCode, sendBody } from './auth.js';
import type { Transport } from './transport.js';

export type NetworkStart =
  | {
      method: 'network';
      verificationId: string;
      /** open it on the device over its mobile data: Android's TRANSPORT_CELLULAR, iOS's cellular-only path */
      url: string;
      /** seconds the check lives */
      expiresIn: number;
    }
  | ({ method: 'code' } & SentCode);

export type NetworkCompletion =
  /** the network proved the number: the temp token goes on as `verifyCode`'s does */
  | { method: 'network'; tempToken: string; expiresIn: number }
  /** the network could not say: one code was sent */
  | ({ method: 'code' } & SentCode)
  /** the device has not come back yet: ask again after this many seconds */
  | { method: 'pending'; retryAfterSeconds: number };

const sentCode = (a: { expires_in: number; channel: SentCode['channel']; message: string }): SentCode => ({
  expiresIn: a.expires_in,
  channel: a.channel,
  message: a.message,
});

export function networkMethods(transport: Transport) {
  return {
    /** Starts a silent check of the phone, or sends the code at once where none can be tried. */
    async startNetworkVerification(input: SendCodeInput): Promise<NetworkStart> {
      const started = await transport.call('post', '/auth/network/start', { body: sendBody(input) });
      if (started.method === 'code') return { method: 'code', ...sentCode(started) };
      const { verification_id, url, expires_in } = started;
      return { method: 'network', verificationId: verification_id, url, expiresIn: expires_in };
    },

    /**
     * The check's answer, once the device is back from the operator (INVALID_CREDENTIALS: another number).
     * With Vonage, an app that followed the check URL's redirects itself passes what the last one carried.
     */
    async completeNetworkVerification(
      verificationId: string,
      returned?: { requestId?: string; code?: string; errorDescription?: string },
    ): Promise<NetworkCompletion> {
      const vendor = returned && {
        request_id: returned.requestId,
        code: returned.code,
        error_description: returned.errorDescription,
      };
      const done = await transport.call('post', '/auth/network/complete', {
        body: { verification_id: verificationId, ...(vendor ? { returned: vendor } : {}) },
      });
      if (done.method === 'pending')
        return { method: 'pending', retryAfterSeconds: done.retry_after_seconds };
      if (done.method === 'code') return { method: 'code', ...sentCode(done) };
      return { method: 'network', tempToken: done.temp_token, expiresIn: done.expires_in };
    },
  };
}
