// The Store on etcd v3, for several API servers sharing one replicated state. etcd's revision is
// the resourceVersion; every write is one transaction whose compare is the precondition (create:
// the key's create_revision is 0; update and delete: its mod_revision is the expected one, or it
// exists), so a failed precondition writes nothing and consumes no revision.
// Of the optional methods, getRaw and listRaw apply (the stored bytes go out as they are);
// listStream does not: its next() is synchronous and its revision is known before any page, so
// it cannot wait for the one etcd read that confirms a consistent list. Lists are served from
// the watch cache where it is current (etcd-watch-cache.ts), else read from etcd in chunks at one
// revision (etcd-list.ts).
import type { Etcd3, IKeyValue, IRangeRequest, IRangeResponse, ITxnResponse } from 'etcd3';
import type { KubeObject } from '../../api/meta.js';
import { KeyExistsError, KeyNotFoundError, RevisionConflictError, RevisionExpiredError, StoreClosedError, ValueTooLargeError } from '../errors.js';
import type { ListOptions, ListResult, Preconditions, RawListResult, Store, StoreEvent, Watch, WatchOptions } from '../store.js';
import { rememberStoredJson } from '../stored-json.js';
import { withResourceVersion } from '../watch-hub.js';
import type { ValueTransformer } from '../encryption/transformer.js';
import { markStale } from '../stale-values.js';
import { callEtcd, createEtcdClient, DEFAULT_REQUEST_TIMEOUT_MS, normalizeEndpoint, translateError } from './etcd-client.js';
import { COMPACT_REV_KEY, EtcdCompactor } from './etcd-compactor.js';
import { defragmentWhereWorthIt, type DefragOptions } from './etcd-defrag.js';
import { EtcdKeys } from './etcd-keys.js';
import { listKvs } from './etcd-list.js';
import { decodeValue, encodeValue, withRevisionBytes, withRevisionText } from './etcd-values.js';
import { WatchCaches } from './etcd-watch-cache.js';
import { WatchFeed, type WatchHost } from './etcd-watch.js';

export interface EtcdStoreOptions {
  /** Client URLs of the etcd members, e.g. ['http://127.0.0.1:2379']. */
  endpoints: string[];
  /** Put before every key, to keep several clusters apart in one etcd. Default '' (keys are `/registry/...`). */
  keyPrefix?: string;
  /** The most one etcd call may take before it fails as unavailable (503). Default 5 s. */
  requestTimeoutMs?: number;
  /** How often history is compacted (kube-apiserver: 5 min); 0 turns it off. Default 5 min. */
  compactIntervalMs?: number;
  /** When a scheduled round defragments a member; false turns defragmenting off. */
  defrag?: DefragOptions | false;
  /** Encrypts the values of the resources it names (--encryption-provider-config). */
  transformer?: ValueTransformer;
  /** Serve lists from a watch cache per resource (default true); false reads every list from etcd. */
  watchCache?: boolean;
}

export const DEFAULT_COMPACT_INTERVAL_MS = 5 * 60_000;

export class EtcdStore implements Store {
  /** Every `drover server` on these endpoints serves the same cluster. */
  readonly shared = true;
  private readonly client: Etcd3;
  private readonly keys: EtcdKeys;
  private readonly endpoints: string[];
  private readonly timeoutMs: number;
  private readonly compactor: EtcdCompactor;
  /** One etcd watcher each, shared by the store watches that can join it (see etcd-watch.ts). */
  private readonly feeds = new Set<WatchFeed>();
  private timer: NodeJS.Timeout | undefined;
  /** The newest revision this store has seen in any reply: where a watch "from now" starts. */
  private revision = 0;
  /** Key-values this store opened from a value an older key or provider wrote (see stale-values.ts). */
  private readonly staleKvs = new WeakSet<IKeyValue>();
  private closing: Promise<void> | undefined;
  /** Per resource, its objects in memory, kept by list + watch, that lists are served from. */
  private readonly caches: WatchCaches | undefined;

  constructor(private readonly options: EtcdStoreOptions) {
    this.endpoints = options.endpoints.map(normalizeEndpoint);
    if (this.endpoints.length === 0) throw new Error('the etcd store needs at least one endpoint');
    this.timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.keys = new EtcdKeys(options.keyPrefix ?? '');
    this.client = createEtcdClient({ endpoints: this.endpoints, requestTimeoutMs: this.timeoutMs });
    this.compactor = new EtcdCompactor({
      client: this.client,
      call: (what, op) => this.call(what, op),
    });
    if (options.watchCache !== false) {
      this.caches = new WatchCaches({
        keys: this.keys,
        // Keys only: nothing to open, and an encrypted resource's empty values could not be.
        range: (request) => this.call('confirm the watch cache', () => this.client.kv.range(request)),
        listPage: (listOptions) => listKvs(this.listHost(), listOptions),
        watch: (watchOptions, onEvent, onError) => this.watch(watchOptions, onEvent, onError),
      });
    }
  }

  /** Lists served from the watch cache, and lists that read etcd. */
  get watchCacheStats(): { hits: number; misses: number } {
    return { ...(this.caches?.stats ?? { hits: 0, misses: 0 }) };
  }

  /** Reaches etcd once (so a wrong endpoint fails at start) and starts the compaction schedule. */
  async start(): Promise<void> {
    await this.currentRevision();
    await this.compactor.refresh();
    const interval = this.options.compactIntervalMs ?? DEFAULT_COMPACT_INTERVAL_MS;
    if (interval > 0) this.timer = setInterval(() => this.compactInBackground(), interval).unref();
  }

  async get(key: string): Promise<KubeObject | undefined> {
    const kv = (await this.range('get', { key: this.keys.full(key) })).kvs[0];
    if (kv === undefined) return undefined;
    const object = decodeValue(kv.value, kv.mod_revision);
    if (this.staleKvs.has(kv)) markStale(object);
    return object;
  }

  async getRaw(key: string): Promise<Uint8Array | undefined> {
    const kv = (await this.range('get', { key: this.keys.full(key) })).kvs[0];
    return kv === undefined ? undefined : withRevisionBytes(kv.value, kv.mod_revision);
  }

  async list(options: ListOptions): Promise<ListResult> {
    const cached = await this.caches?.list(options);
    if (cached !== undefined) {
      const { values, objects, ...page } = cached;
      return { ...page, items: objects ?? values.map((value) => JSON.parse(value.toString('utf8')) as KubeObject) };
    }
    const { kvs, objects, ...page } = await listKvs(this.listHost(), options);
    return { ...page, items: objects ?? kvs.map((kv) => decodeValue(kv.value, kv.mod_revision)) };
  }

  async listRaw(options: ListOptions): Promise<RawListResult> {
    const cached = await this.caches?.list(options);
    if (cached !== undefined) {
      // The cache's own buffers: a response only reads them, and a write replaces, never changes, one.
      const { values, objects: _parsedForFilter, ...page } = cached;
      return { ...page, items: values };
    }
    const { kvs, objects: _parsedForFilter, ...page } = await listKvs(this.listHost(), options);
    return { ...page, items: kvs.map((kv) => withRevisionBytes(kv.value, kv.mod_revision)) };
  }

  async create(key: string, object: KubeObject): Promise<KubeObject> {
    const value = encodeValue(key, object);
    const etcdKey = this.keys.full(key);
    const response = await this.txn('create', key, value, {
      compare: [{ key: etcdKey, target: 'Create', result: 'Equal', create_revision: 0 }],
      success: [{ request_put: { key: etcdKey, value: this.sealed(key, value) } }],
    });
    if (!response.succeeded) throw new KeyExistsError(key);
    return this.written(object, value, response);
  }

  async update(key: string, object: KubeObject, preconditions?: Preconditions): Promise<KubeObject> {
    const value = encodeValue(key, object);
    const etcdKey = this.keys.full(key);
    const expected = preconditions?.expectedRevision;
    const response = await this.txn('update', key, value, {
      compare: [precondition(etcdKey, expected)],
      success: [{ request_put: { key: etcdKey, value: this.sealed(key, value) } }],
      failure: [{ request_range: { key: etcdKey, keys_only: true } }],
    });
    if (!response.succeeded) throw failedPrecondition(key, expected, response);
    return this.written(object, value, response);
  }

  async delete(key: string, preconditions?: Preconditions): Promise<KubeObject> {
    const etcdKey = this.keys.full(key);
    const expected = preconditions?.expectedRevision;
    const response = await this.txn('delete', key, '', {
      compare: [precondition(etcdKey, expected)],
      success: [{ request_delete_range: { key: etcdKey, prev_kv: true } }],
      failure: [{ request_range: { key: etcdKey, keys_only: true } }],
    });
    if (!response.succeeded) throw failedPrecondition(key, expected, response);
    const prev = response.responses[0]?.response_delete_range?.prev_kvs[0];
    if (prev === undefined) throw new KeyNotFoundError(key);
    return decodeValue(this.opened(prev).value, response.header.revision);
  }

  watch(options: WatchOptions, onEvent: (event: StoreEvent) => void, onError?: (error: Error) => void): Watch {
    this.assertOpen();
    const { fromRevision } = options;
    if (fromRevision !== undefined) {
      if (!Number.isSafeInteger(fromRevision) || fromRevision < 0) {
        throw new RangeError(`fromRevision must be a non-negative integer, got ${fromRevision}`);
      }
      // What this store knows was compacted fails at once; what another server compacted since,
      // etcd reports, and the watch ends with the same error.
      if (fromRevision < this.compactor.revision) throw new RevisionExpiredError(fromRevision, this.compactor.revision);
    }
    const after = fromRevision ?? this.revision;
    let feed = [...this.feeds].find((candidate) => candidate.accepts(options.prefix, after));
    if (feed === undefined) {
      feed = new WatchFeed(this.watchHost(), options.prefix, after);
      this.feeds.add(feed);
    }
    return feed.join(options, after, onEvent, onError);
  }

  async currentRevision(): Promise<number> {
    const response = await this.range('read the revision', { key: COMPACT_REV_KEY, count_only: true });
    return Number(response.header.revision);
  }

  async oldestRevision(): Promise<number> {
    this.assertOpen();
    return this.compactor.refresh();
  }

  /**
   * Compacts etcd's history up to `toRevision`, or all of it; the schedule does this every
   * compactIntervalMs. Compaction is etcd-wide: it also ends the history of other prefixes.
   */
  async compact(toRevision?: number): Promise<void> {
    this.assertOpen();
    if (toRevision === undefined) await this.compactor.compactNow();
    else await this.compactor.compactUpTo(toRevision);
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    clearInterval(this.timer);
    this.caches?.close();
    for (const feed of [...this.feeds]) feed.end(new StoreClosedError());
    await this.compactor.idle();
    this.client.close();
  }

  private call<T>(what: string, op: () => Promise<T>): Promise<T> {
    if (this.closing !== undefined) return Promise.reject(new StoreClosedError());
    return callEtcd(what, this.endpoints, this.timeoutMs, op);
  }

  /** Every read goes through here: what it returns holds the values' JSON, never sealed bytes. */
  private async range(what: string, request: IRangeRequest): Promise<IRangeResponse> {
    const response = await this.call(what, () => this.client.kv.range(request));
    this.seen(response.header.revision);
    if (this.options.transformer !== undefined) response.kvs = response.kvs.map((kv) => this.opened(kv));
    return response;
  }

  /** The value to put: the JSON text, or its sealed bytes where the resource is encrypted. */
  private sealed(key: string, value: string): Buffer {
    const { transformer } = this.options;
    if (transformer === undefined) return Buffer.from(value, 'utf8');
    // Bound to the full etcd key, as kube-apiserver binds it (the prefix included).
    const stored = transformer.toStorage(key, value, this.keys.prefix + key);
    return typeof stored === 'string' ? Buffer.from(stored, 'utf8') : stored;
  }

  /** The key-value with its value opened (see encryption/transformer.ts); throws DecryptionError. */
  private opened(kv: IKeyValue): IKeyValue {
    const { transformer } = this.options;
    if (transformer === undefined) return kv;
    const etcdKey = kv.key.toString('utf8');
    const { text, stale } = transformer.fromStorage(etcdKey.slice(this.keys.prefix.length), kv.value, etcdKey);
    const open = { ...kv, value: Buffer.from(text, 'utf8') };
    if (stale) this.staleKvs.add(open);
    return open;
  }

  private async txn(what: string, key: string, value: string, request: Parameters<Etcd3['kv']['txn']>[0]): Promise<ITxnResponse> {
    try {
      const response = await this.call(what, () => this.client.kv.txn(request));
      this.seen(response.header.revision);
      return response;
    } catch (error) {
      // Under our own limit but over etcd's --max-request-bytes once the key and framing are added.
      if (error instanceof ValueTooLargeError) throw new ValueTooLargeError(key, Buffer.byteLength(value));
      throw error;
    }
  }

  private written(object: KubeObject, value: string, response: ITxnResponse): KubeObject {
    const revision = Number(response.header.revision);
    const stored = withResourceVersion(object, revision);
    rememberStoredJson(stored, withRevisionText(value, revision));
    return stored;
  }

  private watchHost(): WatchHost {
    return {
      client: this.client,
      keys: this.keys,
      endpoints: this.endpoints,
      open: (kv: IKeyValue) => this.opened(kv),
      explainCancel: (after: number) => this.explainCancel(after),
      forget: (feed: WatchFeed) => this.feeds.delete(feed),
    };
  }

  private listHost() {
    return {
      keys: this.keys,
      range: (request: IRangeRequest) => this.range('list', request),
      compacted: () => this.compactor.revision,
    };
  }

  private seen(revision: string): void {
    const value = Number(revision);
    if (value > this.revision) this.revision = value;
  }

  /** A cancelled watch: compacted past its start (410), or etcd refused it. */
  private async explainCancel(after: number): Promise<Error> {
    try {
      // Reading at the start revision fails exactly when etcd compacted it away.
      await this.call('check the watch revision', () => this.client.kv.range({ key: COMPACT_REV_KEY, revision: Math.max(1, after), count_only: true }));
    } catch (error) {
      if (error instanceof RevisionExpiredError) return new RevisionExpiredError(after, await this.compactor.refresh().catch(() => after + 1));
      return translateError(error, 'watch', this.endpoints);
    }
    return translateError(new Error('etcd cancelled the watch'), 'watch', this.endpoints);
  }

  /**
   * Defragments the members whose file is mostly free. A compaction's pages count as free only
   * once etcd commits a later write, so the schedule checks at each round what the previous
   * round's compaction freed, before it compacts again.
   */
  async defragmentIfWorthIt(): Promise<string[]> {
    this.assertOpen();
    if (this.options.defrag === false) return [];
    return defragmentWhereWorthIt(this.endpoints, this.options.defrag ?? {}, this.timeoutMs);
  }

  private compactInBackground(): void {
    if (this.closing !== undefined) return;
    this.defragmentIfWorthIt()
      .catch((error: unknown) => warn('defragment', error))
      .then(() => this.currentRevision())
      .then((revision) => this.compactor.tick(revision))
      .catch((error: unknown) => warn('compaction', error));
  }

  private assertOpen(): void {
    if (this.closing !== undefined) throw new StoreClosedError();
  }
}

/** Update and delete: the key exists, at the expected revision when one is given. */
function precondition(key: Buffer, expected: number | undefined) {
  return expected === undefined
    ? { key, target: 'Version' as const, result: 'Greater' as const, version: 0 }
    : { key, target: 'Mod' as const, result: 'Equal' as const, mod_revision: expected };
}

function failedPrecondition(key: string, expected: number | undefined, response: ITxnResponse): Error {
  const current = response.responses[0]?.response_range?.kvs[0];
  if (current === undefined || expected === undefined) return new KeyNotFoundError(key);
  return new RevisionConflictError(key, expected, Number(current.mod_revision));
}

function warn(what: string, error: unknown): void {
  process.emitWarning(`etcd store ${what} failed: ${String(error)}`, 'DroverStoreWarning');
}

/** Connects to etcd and checks it answers; throws StoreUnavailableError when it does not. */
export async function openEtcdStore(options: EtcdStoreOptions): Promise<EtcdStore> {
  const store = new EtcdStore(options);
  try {
    await store.start();
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
