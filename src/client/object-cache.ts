// The informer's store: objects by key plus any number of secondary indexes (pods by node,
// by owner, ...), kept in step on every write so lookups are one Map access.
import type { KubeObject } from '../api/meta.js';

/** The index values of an object; an object may sit under several (or no) values. */
export type IndexFunc<T> = (object: Readonly<T>) => readonly string[];

const EMPTY: readonly never[] = Object.freeze([]);

export class ObjectCache<T extends KubeObject> {
  private readonly items = new Map<string, Readonly<T>>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();

  get size(): number {
    return this.items.size;
  }

  get(key: string): Readonly<T> | undefined {
    return this.items.get(key);
  }

  keys(): string[] {
    return [...this.items.keys()];
  }

  list(): Readonly<T>[] {
    return [...this.items.values()];
  }

  entries(): IterableIterator<[string, Readonly<T>]> {
    return this.items.entries();
  }

  /** Stores `object`, returning what it replaced. */
  set(key: string, object: Readonly<T>): Readonly<T> | undefined {
    const old = this.items.get(key);
    this.items.set(key, object);
    for (const [name, fn] of this.indexers) this.reindex(name, fn, key, old, object);
    return old;
  }

  delete(key: string): Readonly<T> | undefined {
    const old = this.items.get(key);
    if (old === undefined) return undefined;
    this.items.delete(key);
    for (const [name, fn] of this.indexers) this.reindex(name, fn, key, old, undefined);
    return old;
  }

  /** Adding a name twice is allowed only with the same function (shared informers). */
  addIndexer(name: string, fn: IndexFunc<T>): void {
    const existing = this.indexers.get(name);
    if (existing === fn) return;
    if (existing) throw new Error(`indexer "${name}" already exists with a different function`);
    this.indexers.set(name, fn);
    this.indices.set(name, new Map());
    for (const [key, object] of this.items) this.reindex(name, fn, key, undefined, object);
  }

  hasIndexer(name: string): boolean {
    return this.indexers.has(name);
  }

  /** Keys of the objects indexed under `value`. */
  indexKeys(name: string, value: string): readonly string[] {
    const set = this.index(name).get(value);
    return set ? [...set] : EMPTY;
  }

  byIndex(name: string, value: string): Readonly<T>[] {
    const set = this.index(name).get(value);
    if (!set) return [];
    const out: Readonly<T>[] = [];
    for (const key of set) {
      const object = this.items.get(key);
      if (object !== undefined) out.push(object);
    }
    return out;
  }

  /** Every value some object is indexed under. */
  indexValues(name: string): string[] {
    return [...this.index(name).keys()];
  }

  private index(name: string): Map<string, Set<string>> {
    const index = this.indices.get(name);
    if (!index) throw new Error(`no indexer named "${name}"`);
    return index;
  }

  // Old values come from the old object itself: cached objects are never mutated, so the
  // function gives the same answer it gave when the object went in.
  private reindex(name: string, fn: IndexFunc<T>, key: string, old: Readonly<T> | undefined, next: Readonly<T> | undefined): void {
    const index = this.indices.get(name)!;
    const before = old === undefined ? EMPTY : fn(old);
    const after = next === undefined ? EMPTY : fn(next);
    if (before.length === after.length && before.every((value, i) => value === after[i])) return;
    for (const value of before) {
      const set = index.get(value);
      if (!set) continue;
      set.delete(key);
      if (set.size === 0) index.delete(value);
    }
    for (const value of after) {
      let set = index.get(value);
      if (!set) index.set(value, (set = new Set()));
      set.add(key);
    }
  }
}
