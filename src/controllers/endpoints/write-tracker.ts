// Remembers this controller's writes until the informer has seen them, as Kubernetes'
// EndpointSliceTracker does. Slices are created with generateName, so planning from a cache that
// has not yet seen the last creation would create the same endpoints twice; an Endpoints update
// from a cache one write behind would only fail with a conflict. A service whose objects are
// stale in the cache waits instead, and is queued again once the cache has caught up. Writes
// seen back are also told apart from changes made by others.
import type { KubeObject } from '../../api/meta.js';

interface Pending {
  /** resourceVersion written, or undefined for a deletion. */
  resourceVersion: string | undefined;
  at: number;
}

/** How an informer event relates to this controller's own writes. */
export type Observation = 'own' | 'foreign' | 'caught-up';

export class WriteTracker {
  /** service key → object name → the write not yet seen. */
  private readonly pending = new Map<string, Map<string, Pending>>();

  constructor(
    /** The informer's current copy of an object. */
    private readonly cached: (namespace: string, name: string) => Readonly<KubeObject> | undefined,
    /** After this long an unseen write is given up on (a missed event must not block a service forever). */
    private readonly ttlMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records a create or update that returned `written`. */
  wrote(serviceKey: string, written: Readonly<KubeObject>): void {
    const { namespace = '', name = '', resourceVersion } = written.metadata;
    const seen = this.cached(namespace, name);
    if (seen && atLeast(seen.metadata.resourceVersion, resourceVersion)) return;
    this.entries(serviceKey).set(name, { resourceVersion, at: this.now() });
  }

  /** Records a deletion. */
  deleted(serviceKey: string, object: Readonly<KubeObject>): void {
    const { namespace = '', name = '' } = object.metadata;
    if (!this.cached(namespace, name)) return;
    this.entries(serviceKey).set(name, { resourceVersion: undefined, at: this.now() });
  }

  /** Whether some write for the service is not in the cache yet. */
  isStale(serviceKey: string): boolean {
    const entries = this.pending.get(serviceKey);
    if (!entries) return false;
    const oldest = this.now() - this.ttlMs;
    for (const [name, entry] of entries) if (entry.at < oldest) entries.delete(name);
    if (entries.size === 0) this.pending.delete(serviceKey);
    return entries.size > 0;
  }

  /** Matches an informer event against the pending writes of the object's service. */
  observe(serviceKey: string, object: Readonly<KubeObject>, removed: boolean): Observation {
    const entries = this.pending.get(serviceKey);
    const name = object.metadata.name ?? '';
    const entry = entries?.get(name);
    if (!entries || !entry) return 'foreign';
    let own: boolean;
    if (removed) {
      // Whoever deleted it, the cache is now past our write.
      own = entry.resourceVersion === undefined;
      entries.delete(name);
    } else if (entry.resourceVersion === undefined) {
      return 'foreign';
    } else if (atLeast(object.metadata.resourceVersion, entry.resourceVersion)) {
      own = object.metadata.resourceVersion === entry.resourceVersion;
      entries.delete(name);
    } else {
      // An older version than ours: the event stream is still catching up.
      return 'own';
    }
    if (entries.size === 0) {
      this.pending.delete(serviceKey);
      return 'caught-up';
    }
    return own ? 'own' : 'foreign';
  }

  forget(serviceKey: string): void {
    this.pending.delete(serviceKey);
  }

  private entries(serviceKey: string): Map<string, Pending> {
    let entries = this.pending.get(serviceKey);
    if (!entries) this.pending.set(serviceKey, (entries = new Map()));
    return entries;
  }
}

/** resourceVersions are revisions of one counter; opaque ones only compare equal. */
function atLeast(seen: string | undefined, wanted: string | undefined): boolean {
  if (seen === undefined || wanted === undefined) return seen === wanted;
  if (/^\d+$/.test(seen) && /^\d+$/.test(wanted)) return BigInt(seen) >= BigInt(wanted);
  return seen === wanted;
}
