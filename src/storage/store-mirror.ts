// An in-memory picture of some key prefixes of the store, kept by list + watch, for what must be
// decided on every request without reading storage (RBAC, the node authorizer). A fresh picture
// is filled and only then served: while a resync lists (after a broken watch: etcd compaction,
// a lost connection), readers still see the old one rather than an empty one.
import type { Store, StoreEvent, Watch } from './store.js';

const RESYNC_DELAY_MS = 1000;

/** What `apply` is given: a watch event, or a listed object as an ADDED one. */
export type MirrorEvent = Pick<StoreEvent, 'type' | 'key' | 'object' | 'objectJson'>;

export interface MirrorOptions<S> {
  /** Key prefixes to mirror; `apply` is told which one an object came from by its index. */
  prefixes: readonly string[];
  /** An empty picture. */
  fresh(): S;
  /** One listed object (as an ADDED event) or watch event; `event.object` parses on first read. */
  apply(state: S, prefixIndex: number, event: MirrorEvent): void;
  /** For the log line when a resync fails. */
  name: string;
}

export class StoreMirror<S> {
  private current: S;
  private watches: Watch[] = [];
  private resyncTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly options: MirrorOptions<S>,
  ) {
    this.current = options.fresh();
  }

  get state(): S {
    return this.current;
  }

  /** Lists every prefix and watches each from the listed revision; resolves once filled. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.sync();
  }

  stop(): void {
    this.stopped = true;
    if (this.resyncTimer) clearTimeout(this.resyncTimer);
    for (const watch of this.watches) watch.stop();
    this.watches = [];
  }

  private async sync(): Promise<void> {
    for (const watch of this.watches) watch.stop();
    this.watches = [];
    const next = this.options.fresh();
    const watches: Watch[] = [];
    try {
      for (const [index, prefix] of this.options.prefixes.entries()) {
        const { items, revision } = await this.store.list({ prefix });
        for (const object of items) this.options.apply(next, index, { type: 'ADDED', key: '', object });
        watches.push(
          this.store.watch(
            { prefix, fromRevision: revision },
            (event) => this.options.apply(next, index, event),
            () => this.scheduleResync(),
          ),
        );
      }
    } catch (error) {
      for (const watch of watches) watch.stop();
      throw error;
    }
    if (this.stopped) {
      for (const watch of watches) watch.stop();
      return;
    }
    this.current = next;
    this.watches = watches;
  }

  private scheduleResync(): void {
    if (this.stopped || this.resyncTimer) return;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = undefined;
      this.sync().catch((error: Error) => {
        console.error(`${this.options.name}: ${error.message}`);
        this.scheduleResync();
      });
    }, RESYNC_DELAY_MS);
    this.resyncTimer.unref();
  }
}
