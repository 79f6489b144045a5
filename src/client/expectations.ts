// Expectations, as the Kubernetes ReplicaSet/Job and Kubeflow controllers keep them: after a
// controller creates or deletes N objects for an owner, it must not count that owner's objects
// again until its informer has seen those N events (or a TTL passed, in case some event never
// comes). This is what stops a controller with a lagging cache from creating duplicates.

export interface ExpectationsOptions {
  /** After this long, pending expectations are treated as met. Default 5 min. */
  ttlMs?: number;
  now?: () => number;
}

interface Pending {
  adds: number;
  dels: number;
  /** When the expectations were last set: the TTL runs from here. */
  since: number;
  /** Keys of the objects whose deletion is expected, when the caller named them. */
  deleteKeys?: Set<string>;
}

export class Expectations {
  private readonly entries = new Map<string, Pending>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: ExpectationsOptions = {}) {
    this.ttlMs = options.ttlMs ?? 5 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** Replaces the owner's creation expectations with `count`. */
  expectCreations(ownerKey: string, count: number): void {
    this.entries.set(ownerKey, { adds: count, dels: 0, since: this.now() });
  }

  /**
   * Replaces the owner's deletion expectations. Naming the objects (their keys) makes
   * deletionObserved count each object once, even when its deletion is seen twice (an update
   * with deletionTimestamp, then the delete).
   */
  expectDeletions(ownerKey: string, countOrKeys: number | readonly string[]): void {
    const entry: Pending = { adds: 0, dels: 0, since: this.now() };
    if (typeof countOrKeys === 'number') entry.dels = countOrKeys;
    else {
      entry.deleteKeys = new Set(countOrKeys);
      entry.dels = entry.deleteKeys.size;
    }
    this.entries.set(ownerKey, entry);
  }

  /** Adds to the owner's pending expectations (e.g. a second batch of creations). */
  raise(ownerKey: string, adds: number, dels = 0): void {
    const entry = this.entries.get(ownerKey);
    if (!entry) {
      this.entries.set(ownerKey, { adds, dels, since: this.now() });
      return;
    }
    entry.adds += adds;
    entry.dels += dels;
    entry.since = this.now();
  }

  /** The informer saw one of the owner's objects appear (or a creation failed and will not). */
  creationObserved(ownerKey: string): void {
    const entry = this.entries.get(ownerKey);
    if (entry && entry.adds > 0) entry.adds--;
  }

  /** The informer saw one of the owner's objects go (or a deletion failed and will not). */
  deletionObserved(ownerKey: string, objectKey?: string): void {
    const entry = this.entries.get(ownerKey);
    if (!entry || entry.dels <= 0) return;
    if (entry.deleteKeys && objectKey !== undefined) {
      if (!entry.deleteKeys.delete(objectKey)) return;
    }
    entry.dels--;
  }

  /** True when the owner may be reconciled from the cache: nothing pending, or the TTL ran out. */
  satisfied(ownerKey: string): boolean {
    const entry = this.entries.get(ownerKey);
    if (!entry) return true;
    if (entry.adds <= 0 && entry.dels <= 0) return true;
    return this.now() - entry.since > this.ttlMs;
  }

  /** What the owner still waits for. */
  pending(ownerKey: string): { adds: number; dels: number } | undefined {
    const entry = this.entries.get(ownerKey);
    return entry ? { adds: Math.max(0, entry.adds), dels: Math.max(0, entry.dels) } : undefined;
  }

  /** Forgets the owner (it was deleted). */
  delete(ownerKey: string): void {
    this.entries.delete(ownerKey);
  }
}
