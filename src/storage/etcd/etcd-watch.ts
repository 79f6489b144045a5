// Store.watch over an etcd watch. Each store watch is one etcd watcher (etcd3 multiplexes them
// over one gRPC stream) feeding a WatchHub of its own, which brings the shared semantics: filter
// transitions, lazy parsing, delivery outside the caller's stack, and no event at or below the
// start revision. A watch ends with an error instead of hanging or skipping:
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
  /** Tells why etcd cancelled a watch that started after `afterRevision`. */
  explainCancel(afterRevision: number): Promise<Error>;
  /** Called once per watch when it ends, however it ends. */
  forget(watch: EtcdWatch): void;
}

export class EtcdWatch implements Watch {
  private readonly hub = new WatchHub();
  private readonly delivery: Watch;
  private readonly watcher: Watcher;
  private ended = false;
  private released = false;

  constructor(
    private readonly host: WatchHost,
    options: WatchOptions,
    afterRevision: number,
    onEvent: (event: StoreEvent) => void,
    onError?: (error: Error) => void,
  ) {
    const { prefix, filter } = options;
    this.delivery = this.hub.add({ prefix, afterRevision, ...(filter ? { filter } : {}) }, [], onEvent, (error) => {
      this.release();
      onError?.(error);
    });
    this.watcher = host.client
      .watch()
      .inRange({ start: host.keys.full(prefix), end: host.keys.rangeEnd(prefix) })
      .withPreviousKV()
      .startRevision(String(afterRevision + 1))
      .watcher();
    this.watcher.on('data', (response: IWatchResponse) => this.deliver(response));
    this.watcher.on('disconnected', (error: Error) => {
      this.end(new StoreUnavailableError(`the watch stream to etcd (${host.endpoints.join(',')}) broke: ${error.message}`));
    });
    this.watcher.on('error', () => {
      if (this.ended) return;
      host.explainCancel(afterRevision).then((error) => this.end(error), (error: Error) => this.end(error));
    });
  }

  stop(): void {
    this.ended = true;
    this.delivery.stop();
    this.release();
  }

  /** Ends the watch with `error` after what it has already queued. */
  end(error: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.hub.endAll(error);
    this.release();
  }

  private deliver(response: IWatchResponse): void {
    if (this.ended) return;
    for (const event of response.events) {
      const raw = this.toRaw(event);
      if (raw !== undefined) this.hub.publish(raw);
    }
  }

  private toRaw(event: IEvent): RawStoreEvent | undefined {
    const key = this.host.keys.strip(event.kv.key);
    const revision = Number(event.kv.mod_revision);
    const prevValue = event.prev_kv ? textOf(event.prev_kv) : undefined;
    if (event.type === 'Delete') {
      // etcd leaves prev_kv out when the previous revision was compacted before the event was sent.
      if (prevValue === undefined) return undefined;
      return { type: 'DELETED', key, revision, prevValue };
    }
    const type = event.kv.create_revision === event.kv.mod_revision ? 'ADDED' : 'MODIFIED';
    return { type, key, revision, value: textOf(event.kv), ...(prevValue === undefined ? {} : { prevValue }) };
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    this.ended = true;
    this.host.forget(this);
    this.watcher.removeAllListeners('data');
    // The watcher must not emit 'error' with no listener left while it is cancelled.
    this.watcher.removeAllListeners('disconnected');
    this.watcher.removeAllListeners('error');
    this.watcher.on('error', () => undefined);
    this.watcher.cancel().catch(() => undefined);
  }
}

function textOf(kv: IKeyValue): string {
  return withRevisionText(kv.value.toString('utf8'), kv.mod_revision);
}
