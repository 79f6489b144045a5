// A list read page by page while writes go on, yet consistent with one revision.
//
// Reading a 10,000-pod list in one go would hold all of it (~26 MB) in memory until the client
// has read it. Instead each page is read when the response has room for it. A page is read from
// `kv` as one string that SQLite joins; if the history shows a write after the list's revision in
// the page's key range, the page is rebuilt from each key's state at that revision (the `prev`
// of its first later write). The stream pins its revision so compaction keeps that history, but
// only so far (see SqliteStore.oldestPin): a reader too slow for the write rate is cut with
// RevisionExpiredError rather than let history, and the file, grow without bound.
import type Database from 'better-sqlite3';
import { RevisionExpiredError } from '../errors.js';
import type { ListStream } from '../store.js';
import { compareUtf8, type StreamRange } from './sqlite-list.js';
import { plainValue, type ValueExpression } from './sqlite-values.js';

/** Items in a stream's first page, and the most in any page. */
export const STREAM_PAGE_ITEMS = 32;
/**
 * What later pages aim to weigh, from the item size seen so far: under V8's 128 KB limit for
 * young-generation strings, and what a response waiting for a full socket holds (32 ConfigMaps
 * of 25 KB made one page of 800 KB).
 */
const STREAM_PAGE_CHARS = 96 * 1024;
/** Page sizes with a statement each (32, 16, ..., 1). */
const PAGE_SIZES: readonly number[] = [32, 16, 8, 4, 2, 1];
const ADDED = 0;

type PageStatement = Database.Statement<[string, string, string]>;

export function streamStatements(db: Database.Database, read: ValueExpression = plainValue) {
  const statement = (sql: string) => db.prepare(sql).raw();
  // The aggregate consumes the ordered subquery in order (a LIMIT keeps SQLite from flattening
  // it), so the joined text is the page's values in key order; the contract tests hold it to that.
  // The LIMIT is a literal: as a bound parameter, streaming 5,000 pods took 4.5 ms instead of 2.9.
  const pages = (op: '>=' | '>') =>
    new Map(
      PAGE_SIZES.map((items) => [
        items,
        statement(`SELECT max(key), count(*), group_concat(${read('value')}, ?) FROM (
          SELECT key, value FROM kv WHERE key ${op} ? AND key < ? ORDER BY key LIMIT ${items})`) as PageStatement,
      ]),
    );
  return {
    pageFrom: pages('>='),
    pageAfter: pages('>'),
    // Writes since the list's revision touching a key range: rare, and a range scan on revision.
    changedSince: statement('SELECT 1 FROM history WHERE revision > ? AND key >= ? AND key <= ? LIMIT 1').pluck(),
    rows: statement(`SELECT key, ${read('value')} FROM kv WHERE key >= ? AND key <= ?`),
    firstChanges: statement(`SELECT key, type, ${read('prev')} FROM history WHERE revision > ? AND key >= ? AND key <= ? ORDER BY revision`),
  };
}

export type StreamStatements = ReturnType<typeof streamStatements>;

export interface StreamHost {
  statements: StreamStatements;
  pin(revision: number): () => void;
  /** Every history row at or below this revision is gone. */
  compactedRevision(): number;
  assertOpen(): void;
}

/** Streams `range` as it is at `revision`, the store's current one when the stream opens. */
export function openListStream(host: StreamHost, range: StreamRange, revision: number, separator = ','): ListStream {
  const { end } = range;
  const unpin = host.pin(revision);
  let after: string | undefined;
  let pageItems = STREAM_PAGE_ITEMS;
  let done = false;
  const close = () => {
    if (done) return;
    done = true;
    unpin();
  };
  const next = (): string | undefined => {
    while (!done) {
      host.assertOpen();
      const compacted = host.compactedRevision();
      if (compacted > revision) {
        close();
        throw new RevisionExpiredError(revision, compacted);
      }
      const { statements } = host;
      const first = after === undefined;
      const pageOf = (first && range.inclusive ? statements.pageFrom : statements.pageAfter).get(pageItems)!;
      const [last, count, joined] = pageOf.get(separator, after ?? range.start, end) as [string | null, number, string | null];
      // The page answers for the keys from the previous page's last (exclusive: a key followed
      // by NUL sorts right after it) to its own last, or to the range's end when it is the last.
      const low = first && range.inclusive ? range.start : `${after ?? range.start}\u0000`;
      const full = count === pageItems;
      const high = full ? (last as string) : end;
      if (full) after = last as string;
      else close();
      const page = statements.changedSince.get(revision, low, high) === undefined ? joined : pageAt(statements, revision, low, high, separator);
      if (joined !== null && count > 0) pageItems = pageSizeFor(joined.length / count);
      if (page !== null && page.length > 0) return page;
    }
    return undefined;
  };
  const { revision: reported, continue: token, remainingItemCount } = range;
  return { revision: reported, ...(token === undefined ? {} : { continue: token, remainingItemCount }), next, close };
}

/** The largest page size whose items, of this many characters each, weigh no more than a page should. */
function pageSizeFor(itemChars: number): number {
  return PAGE_SIZES.find((items) => items * itemChars <= STREAM_PAGE_CHARS) ?? 1;
}

/** The page's items as they were at `revision`, rebuilt from kv and the first later writes. */
function pageAt(statements: StreamStatements, revision: number, low: string, high: string, separator: string): string {
  const values = new Map<string, string>();
  for (const [key, value] of statements.rows.all(low, high) as Array<[string, string]>) values.set(key, value);
  const seen = new Set<string>();
  for (const [key, type, prev] of statements.firstChanges.all(revision, low, high) as Array<[string, number, string | null]>) {
    if (seen.has(key)) continue;
    seen.add(key);
    // Its first write after the list's revision tells what the key held then: nothing if that
    // write created it, else that write's previous value.
    if (type === ADDED || prev === null) values.delete(key);
    else values.set(key, prev);
  }
  return [...values.keys()]
    .sort(compareUtf8)
    .map((key) => values.get(key)!)
    .join(separator);
}
