import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OAuthError } from '../../domain/oauth/oauth-error.ts';
import { SIGNING_ALGS } from '../../domain/sessions/signing-algorithms.ts';

const DPOP_ERRORS = new Set(['invalid_dpop_proof', 'use_dpop_nonce']);

/**
 * The WWW-Authenticate challenge of a resource's refusal (RFC 6750 §3, RFC 9449 §7.1): the DPoP scheme, with
 * the algorithms it takes, for a DPoP error or a request that used the DPoP scheme; Bearer otherwise; with
 * RFC 9470's step-up parameters where the error names them.
 */
export function resourceChallenge(request: FastifyRequest, err: OAuthError): string {
  const dpop = DPOP_ERRORS.has(err.error) || /^DPoP /i.test(request.headers.authorization ?? '');
  // RFC 6750 §3: a quoted string of printable ASCII, without `"` or `\`.
  const description = err.description.replace(/[^\x20-\x7e]|["\\]/g, "'");
  return [
    `${dpop ? 'DPoP' : 'Bearer'} error="${err.error}"`,
    `error_description="${description}"`,
    ...Object.entries(err.stepUp).map(([name, value]) =>
      typeof value === 'number' ? `${name}=${value}` : `${name}="${value}"`,
    ),
    ...(dpop ? [`algs="${SIGNING_ALGS.join(' ')}"`] : []),
  ].join(', ');
}

/** Every answer of a DPoP endpoint carries the nonce to use next, while this service requires nonces. */
export function offerDpopNonce(required: boolean, dpop: { nonce(): string }) {
  return async (_request: FastifyRequest, reply: FastifyReply) => {
    if (required) reply.header('DPoP-Nonce', dpop.nonce());
  };
}
