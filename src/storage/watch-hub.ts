// Fans committed writes out to watchers. Shared by Store implementations: each one feeds the hub
// its events (replayed history first, then live writes) and the hub takes care of prefix scoping,
// Kubernetes' filter transitions, and per-watcher queues, so that every watcher sees events in
// revision order and never re-entrantly inside the writer's call.
import type { KubeObject } from '../api/meta.js';
import type { ObjectFilter, StoreEvent, Watch, WatchEventType } from './store.js';
import { rememberStoredJson } from './stored-json.js';

/** An event as a store has it: JSON text, parsed only when some watcher wants it. */
export interface RawStoreEvent {
  type: WatchEventType;
  key: string;
  revision: number;
  /** The object after the write. Absent for DELETED, whose object is prevValue at `revision`. */
  value?: string;
  prevValue?: string;
}

export interface WatcherOptions {
  prefix: string;
  /** Only events with a greater revision are delivered. */
  afterRevision: number;
  filter?: ObjectFilter;
}

export type EventHandler = (event: StoreEvent) => void;
export type ErrorHandler = (error: Error) => void;

/** The object with its resourceVersion replaced; nested fields are shared, not copied. */
export function withResourceVersion(object: KubeObject, revision: number): KubeObject {
  return { ...object, metadata: { ...object.metadata, resourceVersion: String(revision) } };
}

/**
 * An event as watchers receive it: its JSON is parsed when a watcher first reads `object` or
 * `prevObject` (a filter, a table), once however many watchers read it, and never when every
 * watcher forwards `objectJson` as it is, which is what plain JSON watches do.
 */
class StoredEvent implements StoreEvent {
  readonly type: WatchEventType;
  readonly key: string;
  readonly revision: number;
  private parsedObject: KubeObject | undefined;
  private parsedPrev: KubeObject | undefined;

  constructor(private readonly raw: RawStoreEvent) {
    this.type = raw.type;
    this.key = raw.key;
    this.revision = raw.revision;
  }

  get objectJson(): string | undefined {
    return this.raw.value;
  }

  get object(): KubeObject {
    if (this.parsedObject === undefined) {
      const { value } = this.raw;
      if (value === undefined) {
        const prev = this.prevObject;
        if (prev === undefined) throw new Error(`event at revision ${this.revision} for ${this.key} carries no object`);
        this.parsedObject = withResourceVersion(prev, this.revision);
      } else {
        this.parsedObject = JSON.parse(value) as KubeObject;
        // Watchers share this object; one that sends it on as JSON can send the stored text.
        rememberStoredJson(this.parsedObject, value);
      }
    }
    return this.parsedObject;
  }

  get prevObject(): KubeObject | undefined {
    const { prevValue } = this.raw;
    if (prevValue !== undefined) this.parsedPrev ??= JSON.parse(prevValue) as KubeObject;
    return this.parsedPrev;
  }
}

/**
 * What a watcher with `filter` sees of `event`, as the Kubernetes watch cache does it: an object
 * that stops matching is DELETED for that watcher (its last matching state, at this revision),
 * one that starts matching is ADDED.
 */
export function filterEvent(event: StoreEvent, filter: ObjectFilter | undefined): StoreEvent | undefined {
  if (filter === undefined) return event;
  if (event.type !== 'MODIFIED' || event.prevObject === undefined) {
    return filter(event.object) ? event : undefined;
  }
  const matchesNow = filter(event.object);
  const matchedBefore = filter(event.prevObject);
  if (matchesNow && matchedBefore) return event;
  const { key, revision } = event;
  if (matchesNow) return { type: 'ADDED', key, revision, object: event.object };
  if (matchedBefore) {
    const object = withResourceVersion(event.prevObject, revision);
    return { type: 'DELETED', key, revision, object, prevObject: event.prevObject };
  }
  return undefined;
}

class Watcher implements Watch {
  private queue: StoredEvent[] = [];
  private scheduled = false;
  private stopped = false;
  private endError: Error | undefined;

  constructor(
    private readonly hub: WatchHub,
    private readonly options: WatcherOptions,
    private readonly onEvent: EventHandler,
    private readonly onError: ErrorHandler | undefined,
  ) {}

  offer(event: StoredEvent): void {
    if (this.stopped || this.endError !== undefined) return;
    if (event.revision <= this.options.afterRevision || !event.key.startsWith(this.options.prefix)) return;
    // Advancing the floor is what makes a replayed event and its live twin impossible.
    this.options.afterRevision = event.revision;
    this.queue.push(event);
    this.schedule();
  }

  /** Delivers what is already queued, then reports `error` and stops. */
  end(error: Error): void {
    if (this.stopped) return;
    this.endError = error;
    this.schedule();
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.queue = [];
    this.hub.remove(this);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    queueMicrotask(() => this.drain());
  }

  private drain(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    for (const stored of batch) {
      if (this.stopped) return;
      try {
        const event = filterEvent(stored, this.options.filter);
        if (event !== undefined) this.onEvent(event);
      } catch (error) {
        this.fail(error instanceof Error ? error : new Error(String(error)));
        return;
      }
    }
    if (this.endError !== undefined && this.queue.length === 0) this.fail(this.endError);
  }

  private fail(error: Error): void {
    if (this.stopped) return;
    this.stop();
    try {
      this.onError?.(error);
    } catch {
      // The watcher is gone either way; its error handler failing must not reach the writer.
    }
  }
}

export class WatchHub {
  private readonly watchers = new Set<Watcher>();

  get size(): number {
    return this.watchers.size;
  }

  /** Registers a watcher; `replay` (history in revision order) is delivered before any live event. */
  add(options: WatcherOptions, replay: RawStoreEvent[], onEvent: EventHandler, onError?: ErrorHandler): Watch {
    const watcher = new Watcher(this, { ...options }, onEvent, onError);
    for (const raw of replay) watcher.offer(new StoredEvent(raw));
    this.watchers.add(watcher);
    return watcher;
  }

  /** Call once per committed write, in revision order. */
  publish(raw: RawStoreEvent): void {
    if (this.watchers.size === 0) return;
    const event = new StoredEvent(raw);
    for (const watcher of this.watchers) watcher.offer(event);
  }

  /** Ends every watch with `error` after delivering what each already has queued. */
  endAll(error: Error): void {
    for (const watcher of [...this.watchers]) watcher.end(error);
  }

  remove(watcher: Watcher): void {
    this.watchers.delete(watcher);
  }
}
