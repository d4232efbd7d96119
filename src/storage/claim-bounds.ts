/**
 * What a send worker's claim may take (P113): at most `limit` rows, and of any one receiver (a webhook
 * endpoint, a client's logout URI) at most `perReceiver` less what it has `busy` in this process.
 */
export interface ClaimBounds {
  limit: number;
  perReceiver: number;
  /** attempts in flight per receiver in this process */
  busy: ReadonlyMap<string, number>;
}

/** The `busy` map as the two arrays a claim statement unnests, receivers and their counts. */
export const busyArrays = (busy: ClaimBounds['busy']): [string[], number[]] => [
  [...busy.keys()],
  [...busy.values()],
];
