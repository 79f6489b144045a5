// Events expire: Kubernetes writes them to etcd with a lease of --event-ttl (1 h), so an Event
// nobody has bumped for an hour disappears. Our stores have no TTL, so the API server sweeps
// instead: every so often it deletes the Events last seen longer ago than the TTL. Watchers see
// the usual DELETED events.
//
// Every API server on a shared store (etcd) sweeps, with no Lease: each delete carries the
// Event's revision as a precondition, so two servers sweeping at once delete each Event once,
// and never one bumped meanwhile.
//
// The deletes go to the store, not the registry, on purpose: this stands in for etcd's lease
// expiry, which removes the key in storage with no delete request (no finalizers, graceful
// deletion or admission), and a sweep of thousands of Events needs no read of each before its
// delete, as the registry's delete makes.
import { isObject, type KubeObject } from '../api/meta.js';
import type { ResourceDefinition } from '../api/resource.js';
import { KeyNotFoundError, RevisionConflictError } from '../storage/errors.js';
import type { Store } from '../storage/store.js';
import { keyFor, prefixFor } from './registry/keys.js';

export const DEFAULT_EVENT_TTL_SECONDS = 3600;

export interface EventTtlOptions {
  ttlSeconds?: number;
  /** Time between sweeps; default a quarter of the TTL, between 100 ms and 1 min. */
  sweepIntervalMs?: number;
}

const PAGE_SIZE = 500;

export class EventTtl {
  private readonly ttlMs: number;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly eventDef: ResourceDefinition,
    options: EventTtlOptions = {},
  ) {
    this.ttlMs = (options.ttlSeconds ?? DEFAULT_EVENT_TTL_SECONDS) * 1000;
    this.intervalMs = options.sweepIntervalMs ?? Math.min(60_000, Math.max(100, this.ttlMs / 4));
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.sweepOnce(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping?.catch(() => 0);
  }

  /** Deletes every Event last seen before `now - ttl`; returns how many went. Sweeps never overlap. */
  sweep(now = Date.now()): Promise<number> {
    if (this.sweeping) return this.sweeping;
    const run = this.deleteExpired(now).finally(() => {
      if (this.sweeping === run) this.sweeping = undefined;
    });
    this.sweeping = run;
    return run;
  }

  private async sweepOnce(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.sweep();
    } catch (error) {
      console.error(`event ttl: sweep failed: ${(error as Error).message}`);
    }
  }

  private async deleteExpired(now: number): Promise<number> {
    const cutoff = now - this.ttlMs;
    const expired = (event: KubeObject) => lastSeen(event) < cutoff;
    let deleted = 0;
    let token: string | undefined;
    do {
      const options: Parameters<Store['list']>[0] = { prefix: prefixFor(this.eventDef), filter: expired, limit: PAGE_SIZE };
      if (token !== undefined) options.continue = token;
      const page = await this.store.list(options);
      for (const event of page.items) {
        if (this.stopped) return deleted;
        if (await this.deleteOne(event)) deleted++;
      }
      token = page.continue;
    } while (token !== undefined && !this.stopped);
    return deleted;
  }

  private async deleteOne(event: KubeObject): Promise<boolean> {
    const key = keyFor(this.eventDef, event.metadata.namespace, event.metadata.name ?? '');
    try {
      await this.store.delete(key, { expectedRevision: Number(event.metadata.resourceVersion) });
      return true;
    } catch (error) {
      // Gone already, or bumped meanwhile (and so fresh again): the next sweep decides.
      if (error instanceof KeyNotFoundError || error instanceof RevisionConflictError) return false;
      throw error;
    }
  }
}

/** When the Event last happened: the newest of its timestamps (a bumped Event is fresh again). */
export function lastSeen(event: KubeObject): number {
  const series = isObject(event['series']) ? event['series'] : {};
  const candidates = [event['lastTimestamp'], event['eventTime'], series['lastObservedTime'], event.metadata.creationTimestamp];
  let newest = Number.NEGATIVE_INFINITY;
  for (const value of candidates) {
    if (typeof value !== 'string' || value === '') continue;
    const time = Date.parse(value);
    if (!Number.isNaN(time) && time > newest) newest = time;
  }
  return newest;
}
