// Using a signed assertion's JWT id (RFC 7523 §3 `jti` of a client assertion; RFC 9449 §11.1 of a DPoP proof).
//
// Rules it enforces:
// - A JWT id is used once per issuer (a client, or a DPoP key by its thumbprint): the first request that
//   presents it records it, and every later one finds it recorded and is refused, also when two arrive at
//   once (one insert wins).
// - A use is kept until the assertion expires, so it can never be presented again while it would verify.
import type { Queryable } from '../db.ts';
import { all, sql } from '../sql.ts';

/** Records the use of this issuer's JWT id; true if this call was its first use. */
export async function useJwtId(q: Queryable, issuer: string, jti: string, expiresAt: Date): Promise<boolean> {
  const used = await all(
    q,
    sql`INSERT INTO jwt_id_uses (issuer, jti, expires_at) VALUES (${issuer}, ${jti}, ${expiresAt})
      ON CONFLICT (issuer, jti) DO NOTHING RETURNING jti`,
  );
  return used.length === 1;
}
