// Store keys as etcd keys: a cluster's keys sit under its prefix (empty by default, so that keys
// are `/registry/...` exactly as kube-apiserver lays them out), and a range over a store prefix is
// the etcd range [prefix, prefix + 1).

export class EtcdKeys {
  constructor(readonly prefix: string) {}

  full(key: string): Buffer {
    return Buffer.from(this.prefix + key, 'utf8');
  }

  /** The store key of an etcd key read back from this cluster's range. */
  strip(key: Buffer): string {
    return key.toString('utf8').slice(this.prefix.length);
  }

  /** The exclusive end of every key starting with `prefix` (etcd's "prefix + 1"). */
  rangeEnd(prefix: string): Buffer {
    return prefixEnd(this.full(prefix));
  }
}

export function prefixEnd(start: Buffer): Buffer {
  const end = Buffer.from(start);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.subarray(0, i + 1);
    }
  }
  // All 0xff (or empty): to the end of the keyspace.
  return Buffer.from([0]);
}

/** The first key after `key` in etcd's byte order. */
export function keyAfter(key: Buffer): Buffer {
  return Buffer.concat([key, Buffer.from([0])]);
}
