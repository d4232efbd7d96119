import type { FastifyRequest } from 'fastify';
import type { PresentedToken } from '../../domain/oauth/dpop-possession.ts';

/** RFC 6750 §2.1: `Authorization: Bearer <b64token>`; undefined when absent or malformed. */
export const bearerToken = (request: FastifyRequest): string | undefined =>
  /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(request.headers.authorization ?? '')?.[1];

/**
 * The access token a request to a resource presents (RFC 6750 §2.1 `Bearer`, or RFC 9449 §7.1 `DPoP` with its
 * proof in the DPoP header), with the method and URL a proof must name; undefined without one.
 */
export function presentedToken(request: FastifyRequest, baseUrl: string): PresentedToken | undefined {
  const match = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(request.headers.authorization ?? '');
  if (!match) return undefined;
  const proof = request.headers.dpop;
  return {
    scheme: match[1].toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer',
    token: match[2],
    proof: Array.isArray(proof) ? proof : proof || undefined,
    method: request.method,
    url: `${baseUrl}${request.url.split('?')[0]}`,
  };
}
