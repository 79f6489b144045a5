// Range scans for Store.list over the `kv` table.
//
// A continued page (and an Exact read) is the collection as it was at the first page's revision,
// as etcd's MVCC gives Kubernetes: SQLite keeps no snapshots, so when `history` shows writes in
// the range since that revision, the page merges the live rows untouched since then with each
// touched key's state at the revision (the `prev` of its first later write) — see scanAt().
import type { KubeObject } from '../../api/meta.js';
import { decodeContinueToken, encodeContinueToken } from '../continue-token.js';
import { RevisionExpiredError } from '../errors.js';
import type { ListOptions, ListResult, ListStream, ListStreamOptions, ObjectFilter } from '../store.js';
import type { Statements } from './sqlite-schema.js';

const ADDED = 0;

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
  const changes = scan.revision < state.currentRevision ? changesSince(scan) : undefined;
  if (changes !== undefined && changes.size > 0) return scanAt(scan, changes, options.filter);
  return options.filter === undefined ? scanAll(scan) : scanFiltered(scan, options.filter);
}

/**
 * Where a list starts and the revision it reads at: a continue token's position and revision,
 * or the prefix at `options.revision` (Exact) or now.
 */
function startOf(options: ListOptions, state: ListState): Pick<Scan, 'start' | 'inclusive' | 'end' | 'revision'> {
  const end = prefixEnd(options.prefix);
  const continued = options.continue !== undefined && options.continue !== '';
  const position = continued ? decodeContinueToken(options.continue!, options.prefix) : undefined;
  const revision = position?.revision ?? Math.min(options.revision ?? state.currentRevision, state.currentRevision);
  if (revision < state.currentRevision && revision < state.compactedRevision) {
    throw new RevisionExpiredError(revision, state.compactedRevision);
  }
  return position === undefined ? { start: options.prefix, inclusive: true, end, revision } : { start: position.key, inclusive: false, end, revision };
}

/** The revision a list (a first page, a continued page, an Exact read) is read at. */
export function listRevisionOf(options: ListOptions, state: ListState): number {
  return startOf(options, state).revision;
}

/** Each key of the range written since the scan's revision → its value then (null: it did not exist). */
function changesSince(scan: Scan): Map<string, string | null> {
  const changes = new Map<string, string | null>();
  const rows = scan.statements.historySince.all(scan.revision, scan.start, scan.end) as Array<[number, number, string, string | null, string | null]>;
  for (const [, type, key, , prev] of rows) {
    if (changes.has(key) || (!scan.inclusive && key === scan.start)) continue;
    changes.set(key, type === ADDED ? null : prev);
  }
  return changes;
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
    ? scan.inclusive
      ? statements.listBytesFrom
      : statements.listBytesAfter
    : scan.inclusive
      ? statements.listFrom
      : statements.listAfter;
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

/**
 * The page as it was at the scan's revision: live rows untouched since then, merged in key order
 * with the touched keys' earlier values. `changes` is bounded by the history window.
 */
function scanAt(scan: Scan, changes: Map<string, string | null>, filter: ObjectFilter | undefined): RawPage<string | Uint8Array> {
  const { statements, start, end, limit, revision, bytes } = scan;
  const earlier = [...changes].filter((entry): entry is [string, string] => entry[1] !== null).sort((a, b) => compareUtf8(a[0], b[0]));
  const statement = scan.inclusive ? statements.listFrom : statements.listAfter;
  const live = statement.iterate(start, end, -1) as IterableIterator<[string, string]>;
  const values: Array<string | Uint8Array> = [];
  const objects: KubeObject[] = [];
  let lastKey: string | undefined;
  let more = false;
  try {
    for (const [key, value] of mergeByKey(live, earlier, changes)) {
      const object = filter === undefined ? undefined : (JSON.parse(value) as KubeObject);
      if (object !== undefined && !filter!(object)) continue;
      if (limit !== 0 && values.length === limit) {
        more = true;
        break;
      }
      values.push(bytes ? Buffer.from(value, 'utf8') : value);
      if (object !== undefined) objects.push(object);
      lastKey = key;
    }
  } finally {
    live.return?.();
  }
  const page: RawPage<string | Uint8Array> = filter === undefined ? { values, revision } : { values, objects, revision };
  if (!more || lastKey === undefined) return page;
  page.continue = encodeContinueToken({ key: lastKey, revision });
  if (filter === undefined) page.remainingItemCount = remainingAt(statements, lastKey, end, changes);
  return page;
}

/** Live rows not touched since the revision, and the touched keys' values then, in key order. */
function* mergeByKey(live: Iterator<[string, string]>, earlier: Array<[string, string]>, changes: Map<string, string | null>): Generator<[string, string]> {
  let i = 0;
  for (let row = live.next(); !row.done; row = live.next()) {
    const [key] = row.value;
    while (i < earlier.length && compareUtf8(earlier[i]![0], key) < 0) yield earlier[i++]!;
    if (!changes.has(key)) yield row.value;
  }
  while (i < earlier.length) yield earlier[i++]!;
}

/** How many keys after `last` the range held at the revision. */
function remainingAt(statements: Statements, last: string, end: string, changes: Map<string, string | null>): number {
  let count = statements.countAfter.get(last, end) as number;
  for (const [key, earlier] of changes) {
    if (compareUtf8(key, last) <= 0) continue;
    const liveNow = statements.getValue.get(key) !== undefined;
    count += (earlier === null ? 0 : 1) - (liveNow ? 1 : 0);
  }
  return count;
}

/** SQLite's order for TEXT keys: by UTF-8 bytes. */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** A page already read, as a ListStream of that one page. */
export function onePageStream(page: RawPage<string>, separator = ','): ListStream {
  let pending: string | undefined = page.values.length > 0 ? page.values.join(separator) : undefined;
  const { revision, continue: token, remainingItemCount } = page;
  return {
    revision,
    ...(token === undefined ? {} : { continue: token, remainingItemCount }),
    next: () => {
      const out = pending;
      pending = undefined;
      return out;
    },
    close: () => (pending = undefined),
  };
}
