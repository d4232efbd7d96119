// How far a service process's JavaScript heap may grow past what it still held after its last full collection.
//
// Rules it enforces:
// - Each service process (the single one, each HTTP worker, `callsign worker`) lets its heap grow to at most
//   half again its live size before collecting in full. Left to itself, V8 grows it up to four times that
//   under a high allocation rate: a worker that held some 40 MB of live objects under a stream of sends
//   reached 285 MB resident, and with this limit 184 MB, at the same rate.
// - An operator's own choice wins: a `--heap-growing-percent` in NODE_OPTIONS or on the command line is left
//   as it is.
import v8 from 'node:v8';

/** The heap's growth past its live size, in percent, before the next full collection. */
export const HEAP_GROWING_PERCENT = 50;

const FLAG = /--heap[-_]growing[-_]percent/;

/** Sets the growth limit unless the operator set one; answers whether it did. */
export function limitHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
): boolean {
  if (FLAG.test(nodeOptions) || execArgv.some((arg) => FLAG.test(arg))) return false;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
