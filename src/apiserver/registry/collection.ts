// Reads of one kind's collection (all of it, or one namespace's): list, its raw and streaming
// fast paths, and watch. The registry hands these out (ObjectRegistry.collection) so that a
// handler never names a store, a key prefix or a kind's stored form: the registry picked the
// kind's store view (converting-store.ts) and the prefix once, here.
import type { ListOptions, ListResult, ListStream, ListStreamOptions, RawListResult, Store, StoreEvent, Watch, WatchOptions } from '../../storage/store.js';

export type CollectionListOptions = Omit<ListOptions, 'prefix'>;
export type CollectionStreamOptions = Omit<ListStreamOptions, 'prefix'>;
export type CollectionWatchOptions = Omit<WatchOptions, 'prefix'>;

export interface Collection {
  list(options?: CollectionListOptions): Promise<ListResult>;
  /** list() as the stored JSON's bytes; undefined when the kind's store cannot read them so. */
  listRaw(options?: CollectionListOptions): Promise<RawListResult | undefined>;
  /** An unfiltered list read a page at a time (Store.listStream); undefined when the store cannot. */
  listStream(options?: CollectionStreamOptions): ListStream | undefined;
  /** As Store.watch: throws RevisionExpiredError when fromRevision is compacted away. */
  watch(options: CollectionWatchOptions, onEvent: (event: StoreEvent) => void, onError?: (error: Error) => void): Watch;
  /** The newest revision written (to any kind: revisions are cluster-wide). */
  currentRevision(): Promise<number>;
}

export function collectionOf(store: Store, prefix: string): Collection {
  return {
    list: (options = {}) => store.list({ ...options, prefix }),
    listRaw: async (options = {}) => (store.listRaw ? store.listRaw({ ...options, prefix }) : undefined),
    listStream: (options = {}) => store.listStream?.({ ...options, prefix }),
    watch: (options, onEvent, onError) => store.watch({ ...options, prefix }, onEvent, onError),
    currentRevision: () => store.currentRevision(),
  };
}
