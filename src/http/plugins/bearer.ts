import type { FastifyRequest } from 'fastify';

/** RFC 6750 §2.1: `Authorization: Bearer <b64token>`; undefined when absent or malformed. */
export const bearerToken = (request: FastifyRequest): string | undefined =>
  /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(request.headers.authorization ?? '')?.[1];
