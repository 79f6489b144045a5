// The narrow storage interface every backend implements (SQLite today, etcd later).
// Keys are strings such as `/registry/pods/default/web-1`; values are whole API objects.
// One cluster-wide revision increases with every write, and is every object's resourceVersion.
import type { KubeObject } from '../api/meta.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  type: WatchEventType;
  key: string;
  /** The revision of this write. */
  revision: number;
  /** The object after the write; for DELETED, the last state with resourceVersion = revision. */
  object: KubeObject;
  /** The object before the write (MODIFIED and DELETED). */
  prevObject?: KubeObject;
  /**
   * `object` as the JSON text the store wrote, when it has it. A store may parse `object` only
   * when it is first read, so a watcher that forwards JSON should send this and leave `object`
   * alone.
   */
  readonly objectJson?: string;
}

/** A predicate evaluated inside the store so that `limit` counts matching objects only. */
export type ObjectFilter = (object: KubeObject) => boolean;

export interface ListOptions {
  /** Every key starting with this prefix, in key order. */
  prefix: string;
  filter?: ObjectFilter;
  /** At most this many matching objects; 0 or undefined = all. */
  limit?: number;
  /** Opaque token from a previous page's ListResult.continue: the page is read at the first page's revision. */
  continue?: string;
  /**
   * Read the collection as it was at this revision (resourceVersionMatch=Exact) instead of now.
   * Throws RevisionExpiredError when history back to it is compacted. Ignored with `continue`.
   */
  revision?: number;
}

export interface ListResult {
  items: KubeObject[];
  /** The store revision this list is consistent with. */
  revision: number;
  /** Set when more matching objects may follow; pass back as ListOptions.continue. */
  continue?: string;
  /** When known, how many matching objects follow this page. */
  remainingItemCount?: number;
}

/** A ListResult whose items are still the stored JSON, as UTF-8 bytes (resourceVersion included). */
export interface RawListResult extends Omit<ListResult, 'items'> {
  items: Uint8Array[];
}

/** What Store.listStream reads: a list without a filter, limited and continued as list() is. */
export interface ListStreamOptions extends Omit<ListOptions, 'filter'> {
  /** What goes between two items of a page; ',' by default. A watch frames its events with it. */
  separator?: string;
}

/**
 * A list read page by page (see Store.listStream). Its metadata is known before the first page,
 * so a response can write it first.
 */
export interface ListStream {
  /**
   * The revision the list reports, as ListResult.revision. Every page is consistent with one
   * revision however long the reading takes, unless the history that needs is compacted away:
   * then next() throws RevisionExpiredError.
   */
  readonly revision: number;
  /** As ListResult.continue. */
  readonly continue?: string;
  /** As ListResult.remainingItemCount. */
  readonly remainingItemCount?: number;
  /**
   * The next page's items as JSON joined by the separator; undefined when the list is done. Pages are
   * strings well under 128 KB: V8 allocates those in its young generation and frees them at the
   * next scavenge, while a Buffer's memory would wait for a full collection (a 10,000-pod list
   * in Buffer pages raised the server's RSS by ~40 MB).
   */
  next(): string | undefined;
  /** Ends the stream early; idempotent, and implied by the last next(). */
  close(): void;
}

export interface WatchOptions {
  prefix: string;
  /** Deliver events with revision > fromRevision (history first, then live). Omitted = from now. */
  fromRevision?: number;
  filter?: ObjectFilter;
}

export interface Watch {
  stop(): void;
  /**
   * The newest revision through which every event of the watch has been handed to it, where
   * that can be behind the store's current revision (etcd: events still on their way from it).
   * A BOOKMARK carries this, since a client resumes from a bookmark's revision. Absent: the
   * current revision (a store that hands events out as it commits them).
   */
  deliveredThrough?(): number;
}

export interface Preconditions {
  /** The write only happens when the stored object's revision equals this. */
  expectedRevision?: number;
}

export interface Store {
  /**
   * Several API servers may use this store at once (etcd): what a server would otherwise keep
   * in its own memory, such as the addresses it handed out, must be claimed in the store.
   */
  readonly shared?: boolean;
  /** The current object, or undefined. Its metadata.resourceVersion is its revision. */
  get(key: string): Promise<KubeObject | undefined>;
  /** Optional fast path: get() as the stored JSON's UTF-8 bytes, for a response to send as is. */
  getRaw?(key: string): Promise<Uint8Array | undefined>;
  list(options: ListOptions): Promise<ListResult>;
  /**
   * Optional fast path: list() without parsing the items. Parsing and re-serializing dominate a
   * large list, so a JSON response can splice these bytes instead.
   */
  listRaw?(options: ListOptions): Promise<RawListResult>;
  /**
   * Optional fast path for an unfiltered list: the items list() would return, read a page at a
   * time as the caller asks, so a large list is never held in memory at once. Throws as list().
   */
  listStream?(options: ListStreamOptions): ListStream;
  /**
   * Throws KeyExistsError. Returns the object with resourceVersion set. create and update may
   * record the JSON they wrote for the returned object (see stored-json.ts).
   */
  create(key: string, object: KubeObject): Promise<KubeObject>;
  /** Throws KeyNotFoundError, RevisionConflictError. */
  update(key: string, object: KubeObject, preconditions?: Preconditions): Promise<KubeObject>;
  /** Throws KeyNotFoundError, RevisionConflictError. Returns the deleted object at the delete's revision. */
  delete(key: string, preconditions?: Preconditions): Promise<KubeObject>;
  /**
   * Events in revision order. Throws RevisionExpiredError when fromRevision is older than the
   * retained history window (the API answers 410 Gone). `onError` reports a broken watch.
   */
  watch(options: WatchOptions, onEvent: (event: StoreEvent) => void, onError?: (error: Error) => void): Watch;
  /** The newest revision written. */
  currentRevision(): Promise<number>;
  /** The oldest revision a watch may still start from. */
  oldestRevision(): Promise<number>;
  close(): Promise<void>;
}
