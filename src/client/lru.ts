// A bounded map that forgets the least recently used entries first (Map keeps insertion order,
// so re-inserting on access moves an entry to the young end). Full, it forgets the least recently
// used eighth at once (util/make-room.ts says why): a cache of 4,096 drops 512 entries together,
// which its users (event dedup, absent owners) read again as misses.
import { makeRoom } from '../util/make-room.js';

export class LruMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.map.size;
  }

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    makeRoom(this.map, this.capacity);
    this.map.set(key, value);
  }

  delete(key: K): void {
    this.map.delete(key);
  }
}
