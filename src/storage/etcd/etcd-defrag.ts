// Defragmenting etcd members when it pays. Compaction frees pages inside etcd's bolt file but
// never shrinks it; only a defragment does, and it blocks the member while it rewrites the file,
// so it is worth doing only when much of the file is free: by default when the file is at least
// twice what is in use and at least 64 MiB of it is free. Members are done one at a time, as
// etcd's operations guide asks, so a cluster keeps its quorum answering.
import { Etcd3 } from 'etcd3';

export interface DefragOptions {
  /** Defragment when the file is at least this many times the bytes in use. Default 2. */
  ratio?: number;
  /** ... and at least this many bytes of it are free. Default 64 MiB. */
  minFreeBytes?: number;
}

export interface DbSize {
  total: number;
  inUse: number;
}

const DEFRAG_TIMEOUT_MS = 60_000;

/** A member's file size and bytes in use, from its /metrics (served on the client URL). */
export async function memberDbSize(endpoint: string, timeoutMs: number): Promise<DbSize> {
  const response = await fetch(new URL('/metrics', endpoint), { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`GET ${endpoint}/metrics answered ${response.status}`);
  const text = await response.text();
  const gauge = (name: string): number => {
    const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
    if (!match) throw new Error(`${endpoint}/metrics has no ${name}`);
    return Number(match[1]);
  };
  return { total: gauge('etcd_mvcc_db_total_size_in_bytes'), inUse: gauge('etcd_mvcc_db_total_size_in_use_in_bytes') };
}

export function worthDefragmenting(size: DbSize, options: DefragOptions = {}): boolean {
  const free = size.total - size.inUse;
  return free >= (options.minFreeBytes ?? 64 * 1024 * 1024) && size.total >= (options.ratio ?? 2) * size.inUse;
}

/** Defragments each member whose file pays for it; returns the endpoints it defragmented. */
export async function defragmentWhereWorthIt(endpoints: readonly string[], options: DefragOptions, timeoutMs: number): Promise<string[]> {
  const done: string[] = [];
  for (const endpoint of endpoints) {
    if (!worthDefragmenting(await memberDbSize(endpoint, timeoutMs), options)) continue;
    // A client of this member alone: etcd3's pool would send it to any member.
    const member = new Etcd3({ hosts: [endpoint], defaultCallOptions: () => ({ deadline: Date.now() + DEFRAG_TIMEOUT_MS }) });
    try {
      await member.maintenance.defragment({});
      done.push(endpoint);
    } finally {
      member.close();
    }
  }
  return done;
}
