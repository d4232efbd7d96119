/**
 * P85: rows as the CTE `input` of one statement, each row with its ordinal `k` (1, 2, ...), every value a
 * parameter of its own. One statement then writes them all under one plan, where a CTE per row would make
 * the server plan and start each anew. The statement's plans know how many rows there are (a VALUES list, not
 * an array), so the one a connection caches is as cheap as one made for the values at hand, and is the one
 * the server keeps using instead of planning the statement again at each execution.
 */
export function batchInput(columns: ReadonlyArray<readonly [name: string, type: string]>, rows: unknown[][]) {
  const value = (name: string, k: number) => {
    const i = columns.findIndex(([n]) => n === name);
    return `$${(k - 1) * columns.length + i + 1}::${columns[i][1]}`;
  };
  const names = columns.map(([name]) => name);
  const values = rows.map((_, r) => `(${names.map((name) => value(name, r + 1)).join(', ')}, ${r + 1})`);
  return {
    cte: `input (${names.join(', ')}, k) AS (VALUES ${values.join(', ')})`,
    /** the parameter holding column `name` of row `k` */
    value,
    params: rows.flat(),
  };
}
