// Range scans for Store.list over the `kv` table.
//
// A continued page reads the current state after the previous page's last key: SQLite keeps no
// MVCC snapshots for us, so unlike etcd a later page can show writes made after the first page.
// Every key that exists throughout the paging is still returned exactly once, in key order, and
// every page reports the first page's revision, so a watch started from it misses nothing.
import type { KubeObject } from '../../api/meta.js';
import { decodeContinueToken, encodeContinueToken } from '../continue-token.js';
import { RevisionExpiredError } from '../errors.js';
import type { ListOptions, ListResult, ListStreamOptions, ObjectFilter } from '../store.js';
import type { Statements } from './sqlite-schema.js';

// Sorts after every key that starts with the prefix (SQLite compares UTF-8 bytes, and U+10FFFF
// is the largest code point), so `key < prefix + KEY_RANGE_END` bounds the range.
const KEY_RANGE_END = '\u{10FFFF}';

export function prefixEnd(prefix: string): string {
  return prefix + KEY_RANGE_END;
}

interface Scan {
  statements: Statements;
  /** Values as UTF-8 bytes (listRaw) rather than strings. */
  bytes: boolean;
  start: string;
  /** Whether `start` itself may be returned (first page) or only keys after it (continued). */
  inclusive: boolean;
  end: string;
  limit: number;
  revision: number;
}

export interface ListState {
  currentRevision: number;
  compactedRevision: number;
}

/**
 * A page as stored: each item's JSON, as text or (`bytes`) UTF-8 bytes, plus the parsed objects
 * when a filter needed them.
 */
export interface RawPage<V extends string | Uint8Array = string> extends Omit<ListResult, 'items'> {
  values: V[];
  objects?: KubeObject[];
}

export function listRange(statements: Statements, options: ListOptions, state: ListState): RawPage<string>;
export function listRange(statements: Statements, options: ListOptions, state: ListState, bytes: true): RawPage<Uint8Array>;
export function listRange(statements: Statements, options: ListOptions, state: ListState, bytes = false): RawPage<string | Uint8Array> {
  const scan: Scan = { statements, bytes, ...startOf(options, state), limit: limitOf(options) };
  return options.filter === undefined ? scanAll(scan) : scanFiltered(scan, options.filter);
}

/** Where a list starts and the revision it reports: a continue token's position, or the prefix. */
function startOf(options: ListOptions, state: ListState): Pick<Scan, 'start' | 'inclusive' | 'end' | 'revision'> {
  const end = prefixEnd(options.prefix);
  if (options.continue === undefined || options.continue === '') {
    return { start: options.prefix, inclusive: true, end, revision: state.currentRevision };
  }
  const position = decodeContinueToken(options.continue, options.prefix);
  if (position.revision < state.compactedRevision) {
    throw new RevisionExpiredError(position.revision, state.compactedRevision);
  }
  return { start: position.key, inclusive: false, end, revision: position.revision };
}

function limitOf(options: ListOptions): number {
  return options.limit !== undefined && options.limit > 0 ? Math.floor(options.limit) : 0;
}

/** The key range a list stream reads and the metadata its response starts with. */
export interface StreamRange {
  start: string;
  inclusive: boolean;
  /** Exclusive. */
  end: string;
  revision: number;
  continue?: string;
  remainingItemCount?: number;
}

/**
 * The page list() would return, as a key range: with a limit, its last key is found in the key
 * index alone (no values read), so the range and its continue token are known before any item
 * is read. Read now, the live table is the state at the current revision.
 */
export function streamRange(statements: Statements, options: ListStreamOptions, state: ListState): StreamRange {
  const range: StreamRange = startOf(options, state);
  const limit = limitOf(options);
  if (limit === 0) return range;
  const keyAt = range.inclusive ? statements.keyAtFrom : statements.keyAtAfter;
  const last = keyAt.get(range.start, range.end, limit - 1) as string | undefined;
  if (last === undefined) return range;
  const remaining = statements.countAfter.get(last, range.end) as number;
  // A key followed by NUL sorts right after it: the range ends with `last`.
  const bounded = { ...range, end: `${last}\u0000` };
  if (remaining === 0) return bounded;
  return { ...bounded, continue: encodeContinueToken({ key: last, revision: range.revision }), remainingItemCount: remaining };
}

function scanAll(scan: Scan): RawPage<string | Uint8Array> {
  const { statements, start, end, limit, revision, bytes } = scan;
  const statement = bytes
    ? (scan.inclusive ? statements.listBytesFrom : statements.listBytesAfter)
    : (scan.inclusive ? statements.listFrom : statements.listAfter);
  // One row past the limit tells whether another page exists without a second query.
  const rows = statement.all(start, end, limit === 0 ? -1 : limit + 1) as Array<[string, string | Uint8Array]>;
  const more = limit !== 0 && rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const values = page.map((row) => row[1]);
  const last = page[page.length - 1];
  if (!more || last === undefined) return { values, revision };
  const remainingItemCount = statements.countAfter.get(last[0], end) as number;
  return { values, revision, continue: encodeContinueToken({ key: last[0], revision }), remainingItemCount };
}

function scanFiltered(scan: Scan, filter: ObjectFilter): RawPage<string | Uint8Array> {
  const { statements, start, end, limit, revision, bytes } = scan;
  const statement = scan.inclusive ? statements.listFrom : statements.listAfter;
  const values: Array<string | Uint8Array> = [];
  const objects: KubeObject[] = [];
  let lastKey: string | undefined;
  let more = false;
  const rows = statement.iterate(start, end, -1) as IterableIterator<[string, string]>;
  try {
    for (const [key, value] of rows) {
      if (limit !== 0 && objects.length === limit) {
        more = true;
        break;
      }
      const object = JSON.parse(value) as KubeObject;
      if (!filter(object)) continue;
      values.push(bytes ? Buffer.from(value, 'utf8') : value);
      objects.push(object);
      lastKey = key;
    }
  } finally {
    // The connection stays busy until an unfinished iterator is closed.
    rows.return?.();
  }
  if (!more || lastKey === undefined) return { values, objects, revision };
  return { values, objects, revision, continue: encodeContinueToken({ key: lastKey, revision }) };
}
