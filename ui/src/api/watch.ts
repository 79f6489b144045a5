// One shared list+watch per kind for the whole page (an informer, as client-go's): every view
// that shows pods reads the same collection, kept current by one watch stream. A watch that ends
// is resumed from the last resourceVersion seen; one that is too old (410 Gone) lists again.
// Views are told of changes at most every UPDATE_MS, so a burst of thousands of events costs a
// handful of renders, not thousands.
import { useEffect, useState } from 'preact/hooks';
import { ApiStatusError, apiFetch, bearerProtocol, errorMessage, websocketUrl } from './client';
import { keyOf, type KubeObject } from './types';

const UPDATE_MS = 150;
const RETRY_MS = 2000;
/** Any name does; the server echoes it (the token's entry is never chosen). */
const WATCH_PROTOCOL = 'watch';

export interface Snapshot {
  items: KubeObject[];
  loaded: boolean;
  error?: string;
}

type Listener = (snapshot: Snapshot) => void;

class Collection {
  private readonly objects = new Map<string, KubeObject>();
  private readonly listeners = new Set<Listener>();
  private snapshot: Snapshot = { items: [], loaded: false };
  private resourceVersion = '';
  private abort: AbortController | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = true;

  constructor(private readonly path: string) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.snapshot);
    if (this.stopped) {
      this.stopped = false;
      void this.run();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  private stop(): void {
    this.stopped = true;
    this.abort?.abort();
    collections.delete(this.path);
  }

  private async run(): Promise<void> {
    let needList = true;
    while (!this.stopped) {
      this.abort = new AbortController();
      try {
        if (needList) await this.list(this.abort.signal);
        needList = false;
        const started = Date.now();
        needList = await this.watch(this.abort.signal);
        // A watch the server ends at once (an ERROR, a restart) is not retried in a tight loop.
        if (Date.now() - started < RETRY_MS && !this.stopped) await sleep(RETRY_MS);
      } catch (error) {
        if (this.stopped) return;
        this.publish(errorMessage(error));
        // A Status error on the list (403, 404) will not mend by itself soon; retry slowly.
        await sleep(error instanceof ApiStatusError ? RETRY_MS * 5 : RETRY_MS);
        needList = true;
      }
    }
  }

  private async list(signal: AbortSignal): Promise<void> {
    const response = await apiFetch(this.path, { signal, headers: { Accept: 'application/json' } });
    const list = (await response.json()) as { items?: KubeObject[]; metadata?: { resourceVersion?: string } };
    this.objects.clear();
    for (const item of list.items ?? []) this.objects.set(keyOf(item), item);
    this.resourceVersion = list.metadata?.resourceVersion ?? '';
    this.publish();
  }

  /**
   * Follows the watch until it ends; true when the next step must list again (410 Gone). It runs
   * over a WebSocket, one event per message: a browser gives a server only six HTTP/1.1
   * connections, and streamed watches would hold them all (WebSockets are counted apart).
   */
  private watch(signal: AbortSignal): Promise<boolean> {
    const query = new URLSearchParams({ watch: '1', allowWatchBookmarks: 'true', resourceVersion: this.resourceVersion });
    const url = websocketUrl(`${this.path}${this.path.includes('?') ? '&' : '?'}${query}`);
    return new Promise((resolve, reject) => {
      // kube-apiserver answers with the first sub-protocol offered beside the token's.
      const socket = new WebSocket(url, [bearerProtocol(), WATCH_PROTOCOL]);
      let expired = false;
      let opened = false;
      const abort = () => socket.close();
      signal.addEventListener('abort', abort, { once: true });
      socket.onopen = () => (opened = true);
      socket.onmessage = (message) => {
        const event = JSON.parse(String(message.data)) as { type: string; object: KubeObject & { code?: number; message?: string } };
        if (event.type === 'ERROR') {
          expired = event.object.code === 410;
          if (!expired) this.publish(event.object.message ?? 'the watch failed');
          return;
        }
        const rv = event.object.metadata?.resourceVersion;
        if (rv) this.resourceVersion = rv;
        if (event.type === 'BOOKMARK') return;
        if (event.type === 'DELETED') this.objects.delete(keyOf(event.object));
        else this.objects.set(keyOf(event.object), event.object);
        this.schedulePublish();
      };
      socket.onclose = () => {
        signal.removeEventListener('abort', abort);
        if (opened || signal.aborted) resolve(expired);
        else reject(new Error(`the watch of ${this.path} could not connect`));
      };
    });
  }

  private schedulePublish(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.publish();
    }, UPDATE_MS);
  }

  private publish(error?: string): void {
    const items = [...this.objects.values()].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
    this.snapshot = error === undefined ? { items, loaded: true } : { items, loaded: this.snapshot.loaded, error };
    for (const listener of this.listeners) listener(this.snapshot);
  }
}

const collections = new Map<string, Collection>();

/** The live list at `path` (e.g. /api/v1/pods), shared with every other view that asks for it. */
export function useCollection(path: string | undefined): Snapshot {
  const [snapshot, setSnapshot] = useState<Snapshot>({ items: [], loaded: false });
  useEffect(() => {
    if (path === undefined) return undefined;
    let collection = collections.get(path);
    if (!collection) {
      collection = new Collection(path);
      collections.set(path, collection);
    }
    return collection.subscribe(setSnapshot);
  }, [path]);
  return snapshot;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
