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
}

/** A predicate evaluated inside the store so that `limit` counts matching objects only. */
export type ObjectFilter = (object: KubeObject) => boolean;

export interface ListOptions {
  /** Every key starting with this prefix, in key order. */
  prefix: string;
  filter?: ObjectFilter;
  /** At most this many matching objects; 0 or undefined = all. */
  limit?: number;
  /** Opaque token from a previous page's ListResult.continue. */
  continue?: string;
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

/** A ListResult whose items are still the stored JSON texts (resourceVersion included). */
export interface RawListResult extends Omit<ListResult, 'items'> {
  items: string[];
}

export interface WatchOptions {
  prefix: string;
  /** Deliver events with revision > fromRevision (history first, then live). Omitted = from now. */
  fromRevision?: number;
  filter?: ObjectFilter;
}

export interface Watch {
  stop(): void;
}

export interface Preconditions {
  /** The write only happens when the stored object's revision equals this. */
  expectedRevision?: number;
}

export interface Store {
  /** The current object, or undefined. Its metadata.resourceVersion is its revision. */
  get(key: string): Promise<KubeObject | undefined>;
  list(options: ListOptions): Promise<ListResult>;
  /**
   * Optional fast path: list() without parsing the items. Parsing and re-serializing dominate a
   * large list, so a JSON response can splice these texts instead.
   */
  listRaw?(options: ListOptions): Promise<RawListResult>;
  /** Throws KeyExistsError. Returns the object with resourceVersion set. */
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
