// An informer: lists a resource, then watches it from the list's resourceVersion, keeping an
// indexed cache and telling handlers about every change exactly once.
//
// Handlers see a consistent story across reconnects: a watch that ends is resumed from the last
// resourceVersion seen (events or bookmarks), so nothing is replayed or skipped; when that
// version has left the server's history (410), a fresh list is compared with the cache and
// only the differences are delivered (adds, updates, deletes), never the unchanged objects.
//
// Objects handed out (to handlers and from the cache) are shared and must not be mutated:
// structuredClone one before changing it.
import type { KubeObject } from '../api/meta.js';
import type { ApiClient } from './api-client.js';
import { Backoff } from '../util/backoff.js';
import { Sleeper } from './sleeper.js';
import { ApiStatusError, isGone } from './errors.js';
import { keyOf, objectKey } from './keys.js';
import { consoleLogger, type Logger } from './logger.js';
import { ObjectCache, type IndexFunc } from './object-cache.js';
import type { ResourceClient, Selector, WatchOptions } from './resource-client.js';
import type { ResourceRef } from './resources.js';
import type { WatchEvent, WatchHandle } from './watch-stream.js';

export interface EventHandlers<T> {
  onAdd?(object: Readonly<T>): void;
  /** On resync `oldObject === newObject`. */
  onUpdate?(oldObject: Readonly<T>, newObject: Readonly<T>): void;
  /** The last state seen; after a re-list it may predate the actual deletion. */
  onDelete?(object: Readonly<T>): void;
}

export interface InformerOptions {
  /** Watch one namespace; all namespaces when unset (namespaced kinds). */
  namespace?: string;
  labelSelector?: Selector;
  fieldSelector?: Selector;
  /** Re-deliver every cached object as an update this often; 0 (default) turns it off. */
  resyncPeriodMs?: number;
  /** Items per list page. Default 500. */
  pageSize?: number;
  /** Reconnect back-off after failures: initial and cap. Default 100 ms and 30 s. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Server-side watch timeout; default a random 5–10 min, as client-go, so watches do not all end together. */
  watchTimeoutSeconds?: number;
  logger?: Logger;
}

export interface InformerStats {
  lists: number;
  watches: number;
  /** Lists forced by 410 Expired. */
  relists: number;
}

type WatchOutcome = 'closed' | 'expired' | 'failed';

export class Informer<T extends KubeObject = KubeObject> {
  private readonly cache = new ObjectCache<T>();
  private readonly handlers = new Set<EventHandlers<T>>();
  private readonly client: ResourceClient<T>;
  private readonly logger: Logger;
  private readonly sleeper = new Sleeper();
  private readonly syncWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private readonly backoff: Backoff;
  private resourceVersion: string | undefined;
  private synced = false;
  private state: 'new' | 'running' | 'stopped' = 'new';
  private watch: WatchHandle | undefined;
  private loop: Promise<void> | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private listedAt = 0;
  readonly stats: InformerStats = { lists: 0, watches: 0, relists: 0 };

  constructor(
    api: ApiClient,
    readonly resource: ResourceRef,
    readonly options: InformerOptions = {},
  ) {
    this.client = api.resource<T>(resource, options.namespace);
    this.logger = options.logger ?? consoleLogger(`informer ${resource.plural}`);
    this.backoff = new Backoff({ initialMs: options.minBackoffMs ?? 100, maxMs: options.maxBackoffMs ?? 30_000, jitter: 0.2 });
  }

  /** Registers handlers; once synced, a late handler first gets onAdd for every cached object. Returns an unsubscribe. */
  addEventHandler(handlers: EventHandlers<T>): () => void {
    this.handlers.add(handlers);
    if (this.synced) for (const object of this.cache.list()) this.call(handlers, 'onAdd', object);
    return () => this.handlers.delete(handlers);
  }

  addIndexer(name: string, fn: IndexFunc<T>): void {
    this.cache.addIndexer(name, fn);
  }

  get(key: string): Readonly<T> | undefined {
    return this.cache.get(key);
  }

  getByName(namespace: string | undefined, name: string): Readonly<T> | undefined {
    return this.cache.get(keyOf(namespace, name));
  }

  list(): Readonly<T>[] {
    return this.cache.list();
  }

  keys(): string[] {
    return this.cache.keys();
  }

  byIndex(indexName: string, value: string): Readonly<T>[] {
    return this.cache.byIndex(indexName, value);
  }

  indexKeys(indexName: string, value: string): readonly string[] {
    return this.cache.indexKeys(indexName, value);
  }

  hasSynced(): boolean {
    return this.synced;
  }

  /** The resourceVersion the cache reflects. */
  get lastResourceVersion(): string | undefined {
    return this.resourceVersion;
  }

  /** Resolves after the first list is in the cache and delivered; rejects on stop or timeout. */
  waitForSync(timeoutMs?: number): Promise<void> {
    if (this.synced) return Promise.resolve();
    if (this.state === 'stopped') return Promise.reject(new Error(`informer ${this.resource.plural} stopped before syncing`));
    return new Promise((resolve, reject) => {
      const waiter = { resolve, reject };
      this.syncWaiters.push(waiter);
      if (timeoutMs === undefined) return;
      const timer = setTimeout(() => reject(new Error(`informer ${this.resource.plural} not synced after ${timeoutMs} ms`)), timeoutMs);
      waiter.resolve = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  start(): void {
    if (this.state !== 'new') return;
    this.state = 'running';
    this.loop = this.run();
    const period = this.options.resyncPeriodMs ?? 0;
    if (period > 0) this.resyncTimer = setInterval(() => this.resync(), period);
  }

  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    const wasRunning = this.state === 'running';
    this.state = 'stopped';
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    this.watch?.stop();
    this.sleeper.wake();
    for (const waiter of this.syncWaiters.splice(0)) waiter.reject(new Error(`informer ${this.resource.plural} stopped before syncing`));
    if (wasRunning) await this.loop;
  }

  private async run(): Promise<void> {
    let needList = true;
    while (this.state === 'running') {
      try {
        if (needList) {
          await this.relist();
          needList = false;
        }
        if (this.state !== 'running') return;
        const outcome = await this.watchOnce();
        if (outcome === 'expired') {
          this.stats.relists++;
          needList = true;
          // History shorter than one list takes: re-listing at once would spin.
          if (Date.now() - this.listedAt < 1000) await this.sleeper.sleep(this.backoff.next());
        } else if (outcome === 'failed') {
          await this.sleeper.sleep(this.backoff.next());
        }
      } catch (error) {
        this.logger.warn('list failed; retrying', { error });
        await this.sleeper.sleep(this.backoff.next());
      }
    }
  }

  /** Lists everything and delivers the differences from the cache. */
  private async relist(): Promise<void> {
    const options: Parameters<ResourceClient<T>['listAll']>[0] = { pageSize: this.options.pageSize ?? 500 };
    if (this.options.labelSelector !== undefined) options.labelSelector = this.options.labelSelector;
    if (this.options.fieldSelector !== undefined) options.fieldSelector = this.options.fieldSelector;
    const list = await this.client.listAll(options);
    this.stats.lists++;
    this.listedAt = Date.now();
    if (this.state !== 'running') return;
    this.replace(list.items, list.metadata.resourceVersion);
  }

  private replace(items: T[], resourceVersion: string | undefined): void {
    const present = new Set<string>();
    for (const item of items) {
      const key = objectKey(item);
      present.add(key);
      this.apply(key, item);
    }
    for (const key of this.cache.keys()) {
      if (present.has(key)) continue;
      const gone = this.cache.delete(key)!;
      this.dispatch('onDelete', gone);
    }
    this.resourceVersion = resourceVersion;
    if (!this.synced) {
      this.synced = true;
      for (const waiter of this.syncWaiters.splice(0)) waiter.resolve();
    }
  }

  /** Stores an added or modified object; delivers nothing when the cache already has this version. */
  private apply(key: string, object: T): void {
    const old = this.cache.set(key, object);
    if (old === undefined) this.dispatch('onAdd', object);
    else if (old.metadata.resourceVersion !== object.metadata.resourceVersion) this.dispatchUpdate(old, object);
  }

  private async watchOnce(): Promise<WatchOutcome> {
    const options: WatchOptions = { allowWatchBookmarks: true, timeoutSeconds: this.options.watchTimeoutSeconds ?? Math.round(300 + Math.random() * 300) };
    if (this.resourceVersion !== undefined) options.resourceVersion = this.resourceVersion;
    if (this.options.labelSelector !== undefined) options.labelSelector = this.options.labelSelector;
    if (this.options.fieldSelector !== undefined) options.fieldSelector = this.options.fieldSelector;
    let outcome: WatchOutcome | undefined;
    const watch = this.client.watch(options, (event) => {
      const result = this.onWatchEvent(event);
      if (result) {
        outcome = result;
        watch.stop();
      }
    });
    this.watch = watch;
    this.stats.watches++;
    const started = Date.now();
    const ready = await watch.ready.then(
      () => true,
      () => false,
    );
    const end = await watch.done;
    // A watch that held for a while proves the server healthy; one that ends at once (or never
    // opened) counts as a failure, so a flapping server is not hammered in a tight loop.
    const healthy = ready && Date.now() - started >= 1000;
    if (healthy) this.backoff.reset();
    if (outcome) return outcome;
    if (end.error && isGone(end.error)) return 'expired';
    if (end.reason === 'error' && this.state === 'running') {
      this.logger.debug('watch ended; resuming', { error: end.error, resourceVersion: this.resourceVersion });
    }
    return end.reason === 'error' || !healthy ? 'failed' : 'closed';
  }

  /** Applies one event; returns how the watch must end when it must. */
  private onWatchEvent(event: WatchEvent<T>): WatchOutcome | undefined {
    if (this.state !== 'running') return undefined;
    if (event.type === 'ERROR') {
      const error = new ApiStatusError(event.object, 'WATCH', this.resource.plural);
      if (isGone(error)) return 'expired';
      this.logger.warn('watch error event', { error });
      return 'failed';
    }
    const object = event.object;
    if (event.type === 'BOOKMARK') {
      this.resourceVersion = object.metadata.resourceVersion;
      return undefined;
    }
    const key = objectKey(event.object);
    if (event.type === 'DELETED') {
      if (this.cache.delete(key) !== undefined) this.dispatch('onDelete', event.object);
    } else {
      this.apply(key, event.object);
    }
    this.resourceVersion = object.metadata.resourceVersion ?? this.resourceVersion;
    return undefined;
  }

  private resync(): void {
    if (!this.synced || this.state !== 'running') return;
    for (const object of this.cache.list()) this.dispatchUpdate(object, object);
  }

  private dispatch(kind: 'onAdd' | 'onDelete', object: Readonly<T>): void {
    for (const handlers of this.handlers) this.call(handlers, kind, object);
  }

  private dispatchUpdate(old: Readonly<T>, next: Readonly<T>): void {
    for (const handlers of this.handlers) {
      try {
        handlers.onUpdate?.(old, next);
      } catch (error) {
        this.logger.error('update handler threw', { error });
      }
    }
  }

  // One handler's bug must not keep the others (or the cache) from seeing the event.
  private call(handlers: EventHandlers<T>, kind: 'onAdd' | 'onDelete', object: Readonly<T>): void {
    try {
      handlers[kind]?.(object);
    } catch (error) {
      this.logger.error(`${kind === 'onAdd' ? 'add' : 'delete'} handler threw`, { error });
    }
  }
}
