// How the SQLite store reads values when some resources are encrypted at rest. The sealed bytes are
// stored as BLOBs (plaintext stays TEXT), and every statement that reads a value reads it through
// an SQL function that opens it, so the list, stream and history code above stays as it is and
// still gets JSON text: that includes group_concat'ed stream pages, which never leave SQLite
// before they are joined. A value that needs no cipher (TEXT of a resource no rule names, or
// NULL) is passed by SQLite without calling into JavaScript at all.
// Without a transformer the statements are exactly the plain ones.
import type Database from 'better-sqlite3';
import type { ValueTransformer } from '../encryption/transformer.js';

/** The SQL expression that reads `column` (of a row that also has `key`) as JSON text. */
export type ValueExpression = (column: string) => string;

export const plainValue: ValueExpression = (column) => column;

export function valueExpression(db: Database.Database, transformer: ValueTransformer | undefined): ValueExpression {
  if (transformer === undefined) return plainValue;
  db.function('drover_open', (key: unknown, value: unknown) => transformer.fromStorage(key as string, value as string | Uint8Array).text);
  const named = transformer.namedSegments();
  if (named !== undefined) {
    // The usual config names its resources (secrets, configmaps): whether a key is theirs is a
    // key range SQLite checks itself. A call into JavaScript per row cost a 10,000-pod list ~20%.
    const ranges = named.map((segment) => `(key >= ${quote(`/registry/${segment}/`)} AND key < ${quote(`/registry/${segment}0`)})`).join(' OR ');
    return (column) => `(CASE WHEN ${column} IS NULL OR (typeof(${column}) = 'text' AND NOT (${ranges})) THEN ${column} ELSE drover_open(key, ${column}) END)`;
  }
  // Wildcards (*.apps, *.*): which keys they cover is the transformer's to say.
  db.function('drover_as_is', (key: unknown, type: unknown) => (type === 'null' || (type === 'text' && !transformer.covers(key as string)) ? 1 : 0));
  return (column) => `(CASE WHEN drover_as_is(key, typeof(${column})) THEN ${column} ELSE drover_open(key, ${column}) END)`;
}

/** An SQL string literal ('0' sorts right after '/', so `< prefix0` ends the prefix's range). */
function quote(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
