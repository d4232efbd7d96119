/**
 * A whole-number query parameter in [min, max], written in plain decimal digits (Number() would also take
 * "0x10", "1e1" and " 5"); `fallback` when absent, undefined when malformed.
 */
export function wholeNumberParam(
  raw: unknown,
  min: number,
  max: number,
  fallback: number,
): number | undefined {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^(0|[1-9][0-9]{0,8})$/.test(raw)) return undefined;
  const n = Number(raw);
  return n >= min && n <= max ? n : undefined;
}
