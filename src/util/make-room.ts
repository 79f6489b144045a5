// Bounded maps that forget their oldest entries (a Map iterates in insertion order).
//
// Deleting the oldest entry one at a time costs every insert a scan: V8 keeps a deleted entry's
// slot until the table is rehashed, so keys().next() walks past every entry deleted before it
// (measured: 1.7 µs an insert at 4,096 entries, where pod start stages marked every pod create;
// 0.27 µs when an eighth goes at once). So room is made an eighth of the capacity at a time.

/** Deletes `map`'s oldest entries when it holds `capacity` or more, leaving room for at least one more. */
export function makeRoom<K, V>(map: Map<K, V>, capacity: number): void {
  if (map.size < capacity) return;
  let excess = map.size - capacity + Math.max(1, capacity >> 3);
  for (const key of map.keys()) {
    map.delete(key);
    if (--excess <= 0) break;
  }
}
