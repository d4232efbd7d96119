import type { Queryable, Row } from './db.ts';

/**
 * A statement, or a piece of one, written as a tagged template: each `${value}` becomes a parameter of its
 * own, and a `${fragment}` made by `sql` is spliced in with its parameters. No parameter numbers are counted
 * by hand, so a statement reads whole, with its values named where they are used.
 *
 *     const row = await first(q, sql`UPDATE otps SET attempts = attempts + 1 WHERE id = ${otpId} RETURNING *`);
 */
export class Sql {
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}

  /** The statement's text, its parameters numbered $1, $2, ... in order, and their values. */
  compile(): { text: string; params: unknown[] } {
    const params: unknown[] = [];
    const text = this.#write(params);
    return { text, params };
  }

  #write(params: unknown[]): string {
    let text = this.strings[0];
    this.values.forEach((value, i) => {
      if (value instanceof Sql) text += value.#write(params);
      else {
        params.push(value);
        text += `$${params.length}`;
      }
      text += this.strings[i + 1];
    });
    return text;
  }
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  return new Sql(strings, values);
}

/** The pieces one after another, `separator` between them (`sql.join(rows, ', ')`). */
sql.join = (pieces: readonly Sql[], separator: string): Sql =>
  pieces.length === 0
    ? new Sql([''], [])
    : new Sql(['', ...pieces.slice(1).map(() => separator), ''], pieces);

/** A CTE's or column's name chosen by the code (`code1`, `code2`, ...), never a value from outside. */
sql.identifier = (name: string): Sql => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not an identifier: ${name}`);
  return new Sql([name], []);
};

/** A piece of statement kept as a constant string in the code (shared CTEs); never a value from outside. */
sql.constant = (text: string): Sql => new Sql([text], []);

/** The rows the statement answers. */
export function all<T = Row>(q: Queryable, statement: Sql): Promise<T[]> {
  const { text, params } = statement.compile();
  return q.query<T>(text, params);
}

/** The statement's first row, or undefined when it answers none. */
export async function first<T = Row>(q: Queryable, statement: Sql): Promise<T | undefined> {
  return (await all<T>(q, statement))[0];
}

/** The statement's one row; anything else is a fault. */
export async function one<T = Row>(q: Queryable, statement: Sql): Promise<T> {
  const rows = await all<T>(q, statement);
  if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}`);
  return rows[0];
}

/**
 * How many rows a data-modifying statement (`... RETURNING 1`) touched, counted by the server: a purge of a
 * large backlog must not send every row back to be counted here.
 */
export async function countRows(q: Queryable, statement: Sql): Promise<number> {
  return (
    await one<{ n: number }>(q, sql`WITH counted AS (${statement}) SELECT count(*)::int AS n FROM counted`)
  ).n;
}
