// What the workers that send claimed rows share (webhook deliveries, D32; back-channel logouts, P109).

/** How long a claim holds: well past the 10 s attempt timeout (D32) plus recording the result. */
export const CLAIM_LEASE_SECONDS = 60;

/**
 * Claims what is due, `limit` at a time, and makes each claim's attempt, waiting for them, until nothing is
 * left due; answers how many attempts were made. `attempt` never rejects (a failure to record an attempt
 * leaves its claim to run out).
 */
export async function sendAllDue<T>(
  claim: (limit: number) => Promise<T[]>,
  attempt: (claimed: T) => Promise<void>,
  limit: number,
): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await claim(limit);
    if (claimed.length === 0) return total;
    await Promise.all(claimed.map(attempt));
    total += claimed.length;
  }
}
