// Store.watch over etcd watches. One etcd watcher on a prefix is a feed; every store watch of that
// prefix that starts at or after the newest revision the feed has published joins it instead of
// opening a watcher of its own, so N clients watching pods cost etcd and this process one stream
// and one decode per event, not N (as kube-apiserver's watch cache does, without its cache). A
// watch from an older revision gets a feed of its own, which replays that history first.
// The feed's WatchHub brings the shared semantics: filter transitions, lazy parsing, delivery
// outside the caller's stack, and no event at or below a watch's start revision.
// A watch's bookmarks carry the feed's published revision, never etcd's current one: under load
// the feed lags etcd by seconds, and a client that resumed from a revision ahead of events still
// in flight would never see them (issue 15). A prefix nobody writes still moves on: etcd sends a
// synced watcher a progress notification (a response without events, at its revision) when it
// sent it nothing for `--experimental-watch-progress-notify-interval`, and the feed publishes
// that revision. It is safe to: etcd sends it only to a watcher that is synced, through the same
// channel as the watcher's events, after every event at or below that revision (the *requested*
// progress of etcd#15220, which could overtake events, is never asked for here).
// A feed ends with an error instead of hanging or skipping:
//   - etcd compacted the revisions it needed: RevisionExpiredError (410, the client re-lists);
//   - the stream to etcd broke: StoreUnavailableError. etcd3 would resume from the newest revision
//     it saw in a reply header, which may skip events still in flight, so the client re-watches
//     from the last resourceVersion it got instead.
import type { Etcd3, IEvent, IKeyValue, IWatchResponse, Watcher } from 'etcd3';
import { StoreUnavailableError } from '../errors.js';
import type { StoreEvent, Watch, WatchOptions } from '../store.js';
import { type RawStoreEvent, WatchHub } from '../watch-hub.js';
import type { EtcdKeys } from './etcd-keys.js';
import { withRevisionText } from './etcd-values.js';

export interface WatchHost {
  client: Etcd3;
  keys: EtcdKeys;
  endpoints: readonly string[];
  /** The key-value with its value opened where it is encrypted (see encryption/transformer.ts). */
  open(kv: IKeyValue): IKeyValue;
  /** Tells why etcd cancelled a watch that started after `afterRevision`. */
  explainCancel(afterRevision: number): Promise<Error>;
  /** Called once per feed when it ends, however it ends. */
  forget(feed: WatchFeed): void;
}

export class WatchFeed {
  private readonly hub = new WatchHub();
  private readonly watcher: Watcher;
  /** The newest revision handed to the hub: a watch after it misses nothing by joining. */
  private published: number;
  private ended = false;

  constructor(
    private readonly host: WatchHost,
    readonly prefix: string,
    private readonly startAfter: number,
  ) {
    this.published = startAfter;
    this.watcher = host.client
      .watch()
      .inRange({ start: host.keys.full(prefix), end: host.keys.rangeEnd(prefix) })
      .withPreviousKV()
      .startRevision(String(startAfter + 1))
      .watcher();
    this.watcher.on('data', (response: IWatchResponse) => this.deliver(response));
    this.watcher.on('disconnected', (error: Error) => {
      this.end(new StoreUnavailableError(`the watch stream to etcd (${host.endpoints.join(',')}) broke: ${error.message}`));
    });
    this.watcher.on('error', () => {
      if (this.ended) return;
      host.explainCancel(this.startAfter).then(
        (error) => this.end(error),
        (error: Error) => this.end(error),
      );
    });
  }

  /** Whether a watch of `prefix` after `afterRevision` can share this feed. */
  accepts(prefix: string, afterRevision: number): boolean {
    return !this.ended && prefix === this.prefix && afterRevision >= this.published;
  }

  join(options: WatchOptions, afterRevision: number, onEvent: (event: StoreEvent) => void, onError?: (error: Error) => void): Watch {
    const { prefix, filter } = options;
    const delivery = this.hub.add({ prefix, afterRevision, ...(filter ? { filter } : {}) }, [], onEvent, (error) => {
      this.left();
      onError?.(error);
    });
    return {
      stop: () => {
        delivery.stop();
        this.left();
      },
      // Every event of the prefix up to `published` came from etcd and was handed to the hub,
      // which hands it on before any timer runs; etcd's current revision may be far ahead of it.
      deliveredThrough: () => Math.max(afterRevision, this.published),
    };
  }

  /** Ends every watch of the feed with `error`, after what each has already queued. */
  end(error: Error): void {
    if (this.ended) return;
    this.release();
    this.hub.endAll(error);
  }

  private deliver(response: IWatchResponse): void {
    if (this.ended) return;
    if (response.events.length === 0) {
      // A progress notification (etcd3 hands the created and cancelled responses elsewhere).
      this.published = Math.max(this.published, Number(response.header.revision));
      return;
    }
    for (const event of response.events) {
      let raw: RawStoreEvent | undefined;
      try {
        raw = this.toRaw(event);
      } catch (error) {
        // A value this server cannot decrypt: its watches end with the error (the client sees
        // it and re-lists, which answers 500 naming the key) instead of it escaping the stream.
        this.end(error as Error);
        return;
      }
      this.published = Math.max(this.published, Number(event.kv.mod_revision));
      if (raw !== undefined) this.hub.publish(raw);
    }
  }

  private toRaw(event: IEvent): RawStoreEvent | undefined {
    const key = this.host.keys.strip(event.kv.key);
    const revision = Number(event.kv.mod_revision);
    const prevValue = event.prev_kv ? textOf(this.host.open(event.prev_kv)) : undefined;
    if (event.type === 'Delete') {
      // etcd leaves prev_kv out when the previous revision was compacted before the event was sent.
      if (prevValue === undefined) return undefined;
      return { type: 'DELETED', key, revision, prevValue };
    }
    const type = event.kv.create_revision === event.kv.mod_revision ? 'ADDED' : 'MODIFIED';
    return { type, key, revision, value: textOf(this.host.open(event.kv)), ...(prevValue === undefined ? {} : { prevValue }) };
  }

  /** The last watch gone: the etcd watcher goes too. */
  private left(): void {
    if (this.hub.size === 0) this.release();
  }

  private release(): void {
    if (this.ended) return;
    this.ended = true;
    this.host.forget(this);
    this.watcher.removeAllListeners('data');
    this.watcher.removeAllListeners('disconnected');
    this.watcher.removeAllListeners('error');
    // The watcher must not emit 'error' with no listener left while it is cancelled.
    this.watcher.on('error', () => undefined);
    this.watcher.cancel().catch(() => undefined);
  }
}

function textOf(kv: IKeyValue): string {
  return withRevisionText(kv.value.toString('utf8'), kv.mod_revision);
}
