// Kubernetes' watch cache (the cacher) on the etcd store: per resource, one list + watch keeps its
// objects in memory (resource-cache.ts), and lists are served from there instead of reading and
// decoding every value from etcd again (a 10,000-pod list spent most of its time in gRPC decode,
// splicing resourceVersions and garbage collection).
// A list must still see every write acknowledged before it, through any server (Kubernetes 1.31's
// consistent reads from cache). Before serving, one small etcd read confirms the picture: over the
// list's keys (its prefix: one namespace, or the whole resource), keys only, the newest key
// written after the cache's revision (min_mod_revision, sorted by mod revision, limit 1) and the
// count of keys; its header is etcd's current revision. Once the cache has applied that newest
// write (its watch delivers it within milliseconds), every key created or changed there is in
// it; if the cache is not yet past etcd's revision, the same key count shows that no delete is
// missing either. So a list is served from memory under a steady stream of writes too, at the
// cost of waiting for one watch event. A cache whose watch does not deliver in time makes the
// list read etcd, as before the cache; one that lost a delete (see lostDeletes) is dropped and
// filled again.
// The confirmation costs etcd a pass over the prefix's keys (the filter makes it read them all:
// ~20 ms for 10,000 pods, where a full list costs it 125-180 ms and this process far more).
// kube-apiserver asks its watch stream for a progress notification instead; it trusts that only
// on etcd 3.4.31+ / 3.5.13+, where it can no longer overtake events in flight, and Debian's etcd
// is 3.4.23.
// Lists of an exact revision and continued pages read etcd (its history has them); Events are
// never cached (kube-apiserver's default watch cache size for them is 0: many, short-lived, and
// rarely listed whole).
import type { IRangeRequest, IRangeResponse } from 'etcd3';
import type { KubeObject } from '../../api/meta.js';
import { encodeContinueToken } from '../continue-token.js';
import { RevisionExpiredError } from '../errors.js';
import type { ListOptions, StoreEvent, Watch, WatchOptions } from '../store.js';
import type { EtcdKeys } from './etcd-keys.js';
import type { KvPage } from './etcd-list.js';
import { textBytes, withRevisionBytes } from './etcd-values.js';
import { ResourceCache } from './resource-cache.js';

export interface WatchCacheHost {
  keys: EtcdKeys;
  /** An etcd range of keys only. */
  range(request: IRangeRequest): Promise<IRangeResponse>;
  /** A page of an etcd list (etcd-list.ts). */
  listPage(options: ListOptions): Promise<KvPage>;
  watch(options: WatchOptions, onEvent: (event: StoreEvent) => void, onError: (error: Error) => void): Watch;
}

/** A list served from the cache: the stored JSON of each item, plus the objects where a filter parsed them. */
export interface CachedPage {
  values: Buffer[];
  objects?: KubeObject[];
  revision: number;
  continue?: string;
  remainingItemCount?: number;
}

const UNCACHED_RESOURCES = new Set(['events', 'events.events.k8s.io']);
/** Keys per etcd read while a cache fills: bounds the size of one gRPC reply. */
const FILL_PAGE = 1_000;
/** Confirmations tried before a list reads etcd instead. */
const CONFIRM_TRIES = 3;
/** How long a cache that is behind gets for its watch to deliver, before the next confirmation. */
const CATCH_UP_MS = 50;
/**
 * How long a list waits for its cache's watch to deliver the newest write etcd has under the
 * list's prefix; a watch further behind than this is not waited for: the list reads etcd.
 */
const REACH_MS = 1_000;
/**
 * How long a list waits for its resource's cache to fill before it reads etcd itself: filling
 * is one read of the resource, so waiting for it costs little more than reading, and saves
 * reading the whole resource twice at once (every server's first lists come together at start).
 */
const FILL_WAIT_MS = 3_000;
/** How long a cache may miss deletes with no event at all before it is filled again. */
const STUCK_MS = 5_000;
/**
 * After a fill fails (a Secret the server cannot decrypt, a compaction on every try), lists of
 * the resource read etcd for this long before one fills again, doubling up to the maximum: each
 * fill reads the whole resource, and without a pause every list would start one.
 */
const FILL_BACKOFF_MS = 1_000;
const FILL_BACKOFF_MAX_MS = 60_000;

interface Slot {
  /** Set once the fill is done and the watch runs. */
  cache?: ResourceCache;
  /** Settles when the fill ends, filled or not. */
  filled: Promise<void>;
  watch?: Watch;
  /** Called when the cache applies an event. */
  waiters: Set<() => void>;
  /** Since when lists have found keys gone from etcd with no event applied (see confirmed). */
  fewerKeysSince?: number;
}

export class WatchCaches {
  private readonly slots = new Map<string, Slot>();
  /** Resources whose last fill failed: no new fill before `until`. */
  private readonly failedFills = new Map<string, { until: number; backoffMs: number }>();
  private closed = false;
  /** Lists served from a cache, and lists that read etcd because none was ready and current. */
  readonly stats = { hits: 0, misses: 0 };

  constructor(private readonly host: WatchCacheHost) {}

  /**
   * The list from the cache of its resource, consistent with etcd's current revision; undefined
   * when it must read etcd (no cache yet, which this starts; or one that is behind).
   */
  async list(options: ListOptions): Promise<CachedPage | undefined> {
    if (options.continue || options.revision !== undefined) return undefined;
    const resource = resourceOf(options.prefix);
    if (resource === undefined || this.closed) return undefined;
    if ((this.failedFills.get(resource)?.until ?? 0) > Date.now()) {
      this.stats.misses++;
      return undefined;
    }
    const slot = this.slotOf(resource);
    if (slot.cache === undefined) await settledWithin(slot.filled, FILL_WAIT_MS);
    const page = slot.cache && (await this.confirmed(resource, options.prefix, slot, (cache, revision) => pageOf(cache, revision, options)));
    if (page === undefined) this.stats.misses++;
    else this.stats.hits++;
    return page;
  }

  close(): void {
    this.closed = true;
    for (const slot of this.slots.values()) slot.watch?.stop();
    this.slots.clear();
  }

  private slotOf(resource: string): Slot {
    let slot = this.slots.get(resource);
    if (slot === undefined) {
      const filling: Slot = { waiters: new Set(), filled: Promise.resolve() };
      filling.filled = this.fill(resource, filling).then(
        () => void this.failedFills.delete(resource),
        () => {
          const backoffMs = Math.min(FILL_BACKOFF_MAX_MS, 2 * (this.failedFills.get(resource)?.backoffMs ?? FILL_BACKOFF_MS / 2));
          this.failedFills.set(resource, { until: Date.now() + backoffMs, backoffMs });
          this.drop(resource, filling);
        },
      );
      this.slots.set(resource, filling);
      slot = filling;
    }
    return slot;
  }

  /** Lists the resource a page at a time at one revision, then watches it from there. */
  private async fill(resource: string, slot: Slot): Promise<void> {
    let page = await this.host.listPage({ prefix: resource, limit: FILL_PAGE });
    const cache = new ResourceCache(page.revision);
    for (;;) {
      for (const kv of page.kvs) cache.put(this.host.keys.strip(kv.key), withRevisionBytes(kv.value, kv.mod_revision, true), 0);
      if (page.continue === undefined) break;
      page = await this.host.listPage({ prefix: resource, limit: FILL_PAGE, continue: page.continue });
    }
    if (this.slots.get(resource) !== slot) return;
    slot.watch = this.host.watch(
      { prefix: resource, fromRevision: cache.revision },
      (event) => {
        slot.fewerKeysSince = undefined;
        if (event.type === 'DELETED') cache.remove(event.key, event.revision);
        else cache.put(event.key, textBytes(event.objectJson ?? JSON.stringify(event.object), true), event.revision);
        for (const wake of slot.waiters) wake();
      },
      () => this.drop(resource, slot),
    );
    slot.cache = cache;
  }

  /** A broken watch or fill: the next list of the resource reads etcd and fills a new cache. */
  private drop(resource: string, slot: Slot): void {
    slot.watch?.stop();
    slot.cache = undefined;
    for (const wake of slot.waiters) wake();
    if (this.slots.get(resource) === slot) this.slots.delete(resource);
  }

  /**
   * Runs `read` on the cache once etcd confirms that the keys under `prefix` (the list's: one
   * namespace's pods is a small read of etcd, not a pass over every pod) are current in it;
   * undefined when it could not.
   */
  private async confirmed<T>(resource: string, prefix: string, slot: Slot, read: (cache: ResourceCache, revision: number) => T): Promise<T | undefined> {
    const startedAt = slot.cache?.revision;
    let onlyFewerKeys = false;
    for (let attempt = 0; attempt < CONFIRM_TRIES; attempt++) {
      const cache = slot.cache;
      if (cache === undefined) return undefined;
      const seen = cache.revision;
      // The newest key under the prefix written since `seen` (etcd filters, then sorts, then
      // limits), the prefix's key count, and etcd's revision now.
      const probe = await this.host.range({
        key: this.host.keys.full(prefix),
        range_end: this.host.keys.rangeEnd(prefix),
        min_mod_revision: seen + 1,
        sort_target: 'Mod',
        sort_order: 'Descend',
        keys_only: true,
        limit: 1,
      });
      const current = Number(probe.header.revision);
      const newest = probe.kvs.length > 0 ? Number(probe.kvs[0]!.mod_revision) : seen;
      // Every key under the prefix that was created or changed by `current` was so by `newest`:
      // once the cache has applied that revision, only deletes can be missing from it.
      if (!(await this.reached(slot, cache, newest))) return undefined;
      const at = cache.revision;
      const size = cache.size;
      // Past `current`, the cache holds every write up to it (and later ones: a newer picture).
      // Short of it, the same key count as etcd's means no delete is missing either.
      if (at > current || cache.countAfter(prefix, prefix) === Number(probe.count)) return read(cache, Math.max(current, at));
      if (await this.lostDeletes(resource, at, size)) {
        this.drop(resource, slot);
        return undefined;
      }
      onlyFewerKeys = true;
      await this.caughtUp(slot, at);
    }
    // Keys gone from etcd and not one event since: a watch that is slow, or a delete it could not
    // report (its event came without the previous value) with no later write to show it. Once
    // that has lasted STUCK_MS, the cache is filled again: else every list would pay these tries
    // until the next write to the resource.
    if (!onlyFewerKeys || slot.cache === undefined || slot.cache.revision !== startedAt) return undefined;
    slot.fewerKeysSince ??= Date.now();
    if (Date.now() - slot.fewerKeysSince >= STUCK_MS) this.drop(resource, slot);
    return undefined;
  }

  /**
   * Whether the cache missed a delete: etcd leaves a delete's previous value out of a watch
   * event once it is compacted, and the watch then has nothing to report it with. A cache that
   * missed nothing holds exactly as many keys as the resource had at its revision.
   */
  private async lostDeletes(resource: string, seen: number, size: number): Promise<boolean> {
    try {
      const then = await this.host.range({
        key: this.host.keys.full(resource),
        range_end: this.host.keys.rangeEnd(resource),
        revision: seen,
        count_only: true,
      });
      return Number(then.count) !== size;
    } catch (error) {
      // Its revision compacted: the cache cannot be checked, so it is filled again.
      if (error instanceof RevisionExpiredError) return true;
      throw error;
    }
  }

  /**
   * Resolves true once the cache has applied `revision`; false when its watch has not delivered
   * it within REACH_MS (a list then reads etcd) or the cache was dropped.
   */
  private reached(slot: Slot, cache: ResourceCache, revision: number): Promise<boolean> {
    const done = () => slot.cache !== cache || cache.revision >= revision;
    if (done()) return Promise.resolve(slot.cache === cache);
    return new Promise((resolve) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        slot.waiters.delete(check);
        resolve(slot.cache === cache);
      };
      const timer = setTimeout(() => {
        slot.waiters.delete(check);
        resolve(false);
      }, REACH_MS);
      slot.waiters.add(check);
    });
  }

  /** Resolves when the cache applies an event after `seen`, or after CATCH_UP_MS. */
  private caughtUp(slot: Slot, seen: number): Promise<void> {
    if ((slot.cache?.revision ?? Infinity) > seen) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        slot.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, CATCH_UP_MS);
      slot.waiters.add(done);
    });
  }
}

function settledWithin(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The cached resource a list prefix falls in: `/registry/<resource>/`, or undefined. */
export function resourceOf(prefix: string): string | undefined {
  const match = /^\/registry\/([^/]+)\//.exec(prefix);
  if (match === null || UNCACHED_RESOURCES.has(match[1]!)) return undefined;
  return match[0];
}

/** The page `options` asks for, from the cache as it is now (at `revision`). */
function pageOf(cache: ResourceCache, revision: number, options: ListOptions): CachedPage {
  const { prefix, filter } = options;
  const limit = options.limit !== undefined && options.limit > 0 ? Math.floor(options.limit) : 0;
  const values: Buffer[] = [];
  const objects: KubeObject[] | undefined = filter === undefined ? undefined : [];
  let lastKey: string | undefined;
  let more = false;
  cache.scan(prefix, (key, value) => {
    const object = filter === undefined ? undefined : (JSON.parse(value.toString('utf8')) as KubeObject);
    if (object !== undefined && !filter!(object)) return true;
    if (limit !== 0 && values.length === limit) {
      more = true;
      return false;
    }
    values.push(value);
    if (object !== undefined) objects!.push(object);
    lastKey = key;
    return true;
  });
  const page: CachedPage = { values, revision, ...(objects === undefined ? {} : { objects }) };
  if (!more || lastKey === undefined) return page;
  page.continue = encodeContinueToken({ key: lastKey, revision });
  // As etcd's count gives it: known for an unfiltered list only.
  if (filter === undefined) page.remainingItemCount = cache.countAfter(prefix, lastKey);
  return page;
}
