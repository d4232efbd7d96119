import { SpanKind } from '@opentelemetry/api';
import { inSpan } from '../observability/tracing.ts';
import type { Database, Queryable } from './db.ts';

// With traces on, each statement is a client span of the request (or job) that ran it, named as OpenTelemetry's
// database conventions have it: the statement's verb and its first table ("SELECT users"). The statement's
// values are never on it, nor its text: only what its summary says.

/** Where each verb names its table. */
const TABLE_AFTER: Record<string, RegExp> = {
  INSERT: /\bINSERT\s+INTO\s+([A-Za-z_][A-Za-z0-9_]*)/i,
  UPDATE: /\bUPDATE\s+([A-Za-z_][A-Za-z0-9_]*)/i,
  DELETE: /\bDELETE\s+FROM\s+([A-Za-z_][A-Za-z0-9_]*)/i,
  SELECT: /\bFROM\s+([A-Za-z_][A-Za-z0-9_]*)/i,
};

/**
 * A statement's verb and its table, e.g. `UPDATE sessions`: a `WITH` statement is named by the first change it
 * makes (else it is a SELECT), and its table is the one that verb names first.
 */
export function statementSummary(text: string): { operation: string; table: string | undefined } {
  const first = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
  const operation =
    first === 'WITH' ? (/\b(INSERT|UPDATE|DELETE)\b/i.exec(text)?.[1]?.toUpperCase() ?? 'SELECT') : first;
  const table = TABLE_AFTER[operation]?.exec(text)?.[1]?.toLowerCase();
  return { operation, table };
}

function tracedQueryable(q: Queryable, system: string): Queryable {
  const spanOf = <T>(text: string, run: () => Promise<T>) => {
    const { operation, table } = statementSummary(text);
    const summary = table ? `${operation} ${table}` : operation;
    const attributes = {
      'db.system.name': system,
      'db.operation.name': operation,
      'db.query.summary': summary,
      ...(table ? { 'db.collection.name': table } : {}),
    };
    return inSpan(summary, attributes, run, SpanKind.CLIENT);
  };
  return {
    query: (text, params) => spanOf(text, () => q.query(text, params)),
    exec: (text) => spanOf(text, () => q.exec(text)),
  };
}

/** The database with a span around each statement, and one around each transaction holding its statements. */
export function tracedDatabase(db: Database): Database {
  const system = db.kind === 'pglite' ? 'pglite' : 'postgresql';
  return {
    kind: db.kind,
    ...tracedQueryable(db, system),
    transaction: (fn) =>
      inSpan('transaction', { 'db.system.name': system }, () =>
        db.transaction((tx) => fn(tracedQueryable(tx, system))),
      ),
    listen: (channel, onNotify) => db.listen(channel, onNotify),
    close: () => db.close(),
  };
}
