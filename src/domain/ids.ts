/** Ids of rows are UUIDs; anything else in a path cannot name one (and must not reach a uuid column). */
export const isUuid = (s: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
