// One resource's objects in memory, as etcd holds them at one revision: the picture a watch
// cache (etcd-watch-cache.ts) keeps by list + watch and serves lists from. Values are kept as the
// JSON bytes a raw list sends (resourceVersion filled in), each in a buffer of its own: a list
// hands them out as they are, and a replaced value frees its memory alone (a slice of Node's
// shared 8 KiB pool would hold its neighbours' slab).

export class ResourceCache {
  private readonly values = new Map<string, Buffer>();
  /** The keys in etcd's order (UTF-8 bytes), for ranges and pages. */
  private readonly keys: string[] = [];
  /** Every write to the resource up to this revision is applied, and none after it. */
  revision: number;

  constructor(revision: number) {
    this.revision = revision;
  }

  get size(): number {
    return this.keys.length;
  }

  /** A created or modified object, written at `revision`. */
  put(key: string, json: Buffer, revision: number): void {
    if (!this.values.has(key)) this.keys.splice(this.indexOf(key), 0, key);
    this.values.set(key, json);
    this.advance(revision);
  }

  remove(key: string, revision: number): void {
    if (this.values.delete(key)) this.keys.splice(this.indexOf(key), 1);
    this.advance(revision);
  }

  /**
   * Visits the entries whose key starts with `prefix` and sorts after `after`, in key order,
   * until `visit` returns false. (A callback, not a generator: 10,000 entries a list.)
   */
  scan(prefix: string, visit: (key: string, value: Buffer) => boolean | void, after?: string): void {
    let i = this.indexOf(after ?? prefix);
    if (after !== undefined && this.keys[i] === after) i++;
    for (; i < this.keys.length; i++) {
      const key = this.keys[i]!;
      if (!key.startsWith(prefix) || visit(key, this.values.get(key)!) === false) return;
    }
  }

  /** How many keys start with `prefix` and sort after `after`. */
  countAfter(prefix: string, after: string): number {
    let i = this.indexOf(after);
    if (this.keys[i] === after) i++;
    const start = i;
    // The keys under a prefix are contiguous: find where they end.
    let end = this.keys.length;
    for (let low = start; low < end;) {
      const middle = (low + end) >>> 1;
      if (this.keys[middle]!.startsWith(prefix)) low = middle + 1;
      else end = middle;
    }
    return end - start;
  }

  private advance(revision: number): void {
    if (revision > this.revision) this.revision = revision;
  }

  /** The first index whose key is not before `key` (binary search). */
  private indexOf(key: string): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareUtf8Order(this.keys[middle]!, key) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/**
 * Strings in the order of their UTF-8 bytes (etcd's key order) without encoding them. UTF-16
 * order differs from it only where a surrogate (a code point past U+FFFF) meets U+E000–U+FFFF,
 * so those two bands swap places before the first differing code units are compared.
 */
export function compareUtf8Order(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

function utf8Rank(unit: number): number {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}
