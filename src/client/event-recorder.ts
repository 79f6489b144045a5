// Writes core/v1 Events the way Kubernetes components do: a repeat of the same event (same
// object, type, reason and message) within the window patches the existing Event's count and
// lastTimestamp instead of creating another; see EventCorrelator for spam and similar-event
// folding. Recording never throws into the caller: failures are logged.
import { hostname } from 'node:os';
import { metaTime, type KubeObject } from '../api/meta.js';
import type { ApiClient } from './api-client.js';
import { isAlreadyExists, isNotFound } from './errors.js';
import { EventCorrelator, type CorrelatorOptions } from './event-correlator.js';
import { consoleLogger, type Logger } from './logger.js';
import { LruMap } from './lru.js';
import type { ResourceClient } from './resource-client.js';
import { resources } from './resources.js';

export interface ObjectReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  resourceVersion?: string;
  fieldPath?: string;
}

export type EventType = 'Normal' | 'Warning';

export interface EventRecorderOptions extends CorrelatorOptions {
  /** The reporting instance (default: this machine's hostname). */
  host?: string;
  logger?: Logger;
  /** Event writes in flight at once (default 4). */
  maxConcurrentWrites?: number;
  /** Events waiting beyond this many are dropped (default 1000). */
  maxBacklog?: number;
}

interface Written {
  name: string;
  namespace: string;
  count: number;
  lastSeen: number;
}

export class EventRecorder {
  private readonly events: ResourceClient;
  private readonly correlator: EventCorrelator;
  private readonly written: LruMap<string, Written>;
  /** Writes per key run one after another, so repeats count up instead of racing. */
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly host: string;
  private readonly logger: Logger;
  private sequence = 0;
  /**
   * Events are best effort and must not compete with the component's real work (a scheduler
   * binding 1,000 pods/s would otherwise double its API load): a few writes at a time, and past
   * a backlog new events are dropped, as client-go's event broadcaster does.
   */
  private writing = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly maxConcurrentWrites: number;
  private readonly maxBacklog: number;
  dropped = 0;

  constructor(
    api: ApiClient,
    readonly component: string,
    options: EventRecorderOptions = {},
  ) {
    this.events = api.resource(resources.events);
    this.correlator = new EventCorrelator(options);
    this.written = new LruMap(options.cacheSize ?? 4096);
    this.host = options.host ?? hostname();
    this.logger = options.logger ?? consoleLogger(`events ${component}`);
    this.maxConcurrentWrites = options.maxConcurrentWrites ?? 4;
    this.maxBacklog = options.maxBacklog ?? 1000;
  }

  /** Records an event about `involved`; the promise settles (never rejects) once it is written. */
  record(involved: KubeObject | ObjectReference, type: EventType, reason: string, message: string): Promise<void> {
    const ref = referenceOf(involved);
    const objectKey = [this.component, this.host, ref.kind, ref.namespace, ref.name, ref.uid].join('/');
    const verdict = this.correlator.correlate({ objectKey, type, reason, message });
    if (verdict.skip) {
      this.logger.debug('event dropped by the spam filter', { reason, object: ref.name });
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxBacklog) {
      this.dropped++;
      return Promise.resolve();
    }
    const previous = this.inflight.get(verdict.key) ?? Promise.resolve();
    const write = previous
      .then(() => this.withSlot(() => this.write(verdict.key, ref, type, reason, verdict.message)))
      .catch((error: unknown) => this.logger.warn('could not write event', { reason, object: ref.name, error }))
      .finally(() => {
        if (this.inflight.get(verdict.key) === write) this.inflight.delete(verdict.key);
      });
    this.inflight.set(verdict.key, write);
    return write;
  }

  private async withSlot<T>(task: () => Promise<T>): Promise<T> {
    if (this.writing >= this.maxConcurrentWrites) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.writing++;
    try {
      return await task();
    } finally {
      this.writing--;
      this.waiting.shift()?.();
    }
  }

  /** Waits for every event recorded so far to be written. */
  async flush(): Promise<void> {
    await Promise.all([...this.inflight.values()]);
  }

  private async write(key: string, ref: ObjectReference, type: EventType, reason: string, message: string): Promise<void> {
    const now = this.correlator.now();
    const timestamp = metaTime(new Date(now));
    const seen = this.written.get(key);
    if (seen && now - seen.lastSeen <= this.correlator.window) {
      try {
        await this.events.inNamespace(seen.namespace).patch(seen.name, 'merge', { count: seen.count + 1, lastTimestamp: timestamp, message });
        seen.count++;
        seen.lastSeen = now;
        return;
      } catch (error) {
        // The event expired or was deleted: start a new one.
        if (!isNotFound(error)) throw error;
      }
    }
    const namespace = ref.namespace || 'default';
    const name = await this.create(ref, namespace, type, reason, message, timestamp);
    this.written.set(key, { name, namespace, count: 1, lastSeen: now });
  }

  private async create(ref: ObjectReference, namespace: string, type: EventType, reason: string, message: string, timestamp: string): Promise<string> {
    for (let attempt = 0; ; attempt++) {
      const name = `${ref.name ?? 'unknown'}.${this.uniqueSuffix()}`;
      const event: KubeObject = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: ref,
        reason,
        message,
        type,
        count: 1,
        firstTimestamp: timestamp,
        lastTimestamp: timestamp,
        source: { component: this.component, host: this.host },
        reportingComponent: this.component,
        reportingInstance: this.host,
      };
      try {
        await this.events.inNamespace(namespace).create(event);
        return name;
      } catch (error) {
        if (!isAlreadyExists(error) || attempt > 2) throw error;
      }
    }
  }

  /** Hex nanoseconds as Kubernetes names events, plus a sequence so one millisecond holds many. */
  private uniqueSuffix(): string {
    const nanos = BigInt(Date.now()) * 1_000_000n + BigInt(this.sequence++ % 1_000_000);
    return nanos.toString(16);
  }
}

function referenceOf(involved: KubeObject | ObjectReference): ObjectReference {
  if (!('metadata' in involved) || typeof involved.metadata !== 'object') return involved as ObjectReference;
  const object = involved as KubeObject;
  const ref: ObjectReference = { apiVersion: object.apiVersion, kind: object.kind };
  const { namespace, name, uid, resourceVersion } = object.metadata;
  if (namespace) ref.namespace = namespace;
  if (name) ref.name = name;
  if (uid) ref.uid = uid;
  if (resourceVersion) ref.resourceVersion = resourceVersion;
  return ref;
}
