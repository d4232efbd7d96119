// The counts a room keeps for operators (the Prometheus metrics of observability/metrics.ts). Each room says
// which labels it counts by; the process hands it the metric itself, so counting runs no code of the process's
// own inside a request.

/** A count that only goes up, by its labels. */
export interface Count<L extends string> {
  inc(labels: Partial<Record<L, string>>): void;
}

/** An amount that only goes up, by its labels (what messages cost). */
export interface Tally<L extends string> {
  inc(labels: Partial<Record<L, string>>, amount: number): void;
}

/** A level that is set, by its labels (1 or 0 for a state). */
export interface Level<L extends string> {
  set(labels: Partial<Record<L, string>>, value: number): void;
}

/** A spread of durations in seconds, by their labels. */
export interface Durations<L extends string> {
  observe(labels: Partial<Record<L, string>>, seconds: number): void;
}
