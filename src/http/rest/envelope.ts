/** Spec "REST surface": every success is `{success: true, data}`. */
export const ok = <const T>(data: T) => ({ success: true as const, data });
