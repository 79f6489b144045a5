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

/** Parses an event's JSON once, however many watchers receive it. Watchers share the result. */
class LazyEvent {
  private parsed: StoreEvent | undefined;
  constructor(readonly raw: RawStoreEvent) {}

  get event(): StoreEvent {
    return (this.parsed ??= materialize(this.raw));
  }
}

function materialize(raw: RawStoreEvent): StoreEvent {
  const { type, key, revision } = raw;
  const prevObject = raw.prevValue === undefined ? undefined : (JSON.parse(raw.prevValue) as KubeObject);
  let object: KubeObject;
  if (raw.value !== undefined) {
    object = JSON.parse(raw.value) as KubeObject;
    // Watchers share this object; one that sends it on as JSON can send the stored text.
    rememberStoredJson(object, raw.value);
  }
  else if (prevObject !== undefined) object = withResourceVersion(prevObject, revision);
  else throw new Error(`event at revision ${revision} for ${key} carries no object`);
  return prevObject === undefined ? { type, key, revision, object } : { type, key, revision, object, prevObject };
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
  private queue: LazyEvent[] = [];
  private scheduled = false;
  private stopped = false;
  private endError: Error | undefined;

  constructor(
    private readonly hub: WatchHub,
    private readonly options: WatcherOptions,
    private readonly onEvent: EventHandler,
    private readonly onError: ErrorHandler | undefined,
  ) {}

  offer(event: LazyEvent): void {
    const { raw } = event;
    if (this.stopped || this.endError !== undefined) return;
    if (raw.revision <= this.options.afterRevision || !raw.key.startsWith(this.options.prefix)) return;
    // Advancing the floor is what makes a replayed event and its live twin impossible.
    this.options.afterRevision = raw.revision;
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
    for (const lazy of batch) {
      if (this.stopped) return;
      try {
        const event = filterEvent(lazy.event, this.options.filter);
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
    for (const raw of replay) watcher.offer(new LazyEvent(raw));
    this.watchers.add(watcher);
    return watcher;
  }

  /** Call once per committed write, in revision order. */
  publish(raw: RawStoreEvent): void {
    if (this.watchers.size === 0) return;
    const event = new LazyEvent(raw);
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
