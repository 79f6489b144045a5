// What bench:scale reads from the servers' own /metrics: the API server's request-latency
// histogram (every request the scheduler, controllers and hollow nodes made, not only the
// benchmark's probes) and etcd's process and database figures.

/** Cumulative bucket counts by upper bound (seconds; Infinity for +Inf). */
export type Buckets = Map<number, number>;

export type VerbGroup = 'mutating' | 'get' | 'list';

/** kube-apiserver's metric verbs (HTTP methods, LIST and APPLY) by the SLO they fall under. */
const GROUPS: Record<string, VerbGroup> = {
  POST: 'mutating',
  PUT: 'mutating',
  PATCH: 'mutating',
  APPLY: 'mutating',
  DELETE: 'mutating',
  GET: 'get',
  LIST: 'list',
};

/** apiserver_request_duration_seconds summed over resources into mutating / get / list. */
export function requestHistograms(text: string): Map<VerbGroup, Buckets> {
  const out = new Map<VerbGroup, Buckets>();
  const line = /^apiserver_request_duration_seconds_bucket\{([^}]*)\} (\S+)$/gm;
  for (const match of text.matchAll(line)) {
    const labels = Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const group = GROUPS[labels['verb'] ?? ''];
    if (!group) continue;
    const le = labels['le'] === '+Inf' ? Infinity : Number(labels['le']);
    const buckets = out.get(group) ?? new Map<number, number>();
    buckets.set(le, (buckets.get(le) ?? 0) + Number(match[2]));
    out.set(group, buckets);
  }
  return out;
}

/** The requests observed between two scrapes. */
export function difference(after: Buckets | undefined, before: Buckets | undefined): Buckets {
  const out: Buckets = new Map();
  for (const [le, count] of after ?? []) out.set(le, count - (before?.get(le) ?? 0));
  return out;
}

/** The bucket bound under which a share `q` of the requests fell, and how many there were. */
export function bucketQuantile(buckets: Buckets, q: number): { bound: number; total: number } {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Infinity) ?? 0;
  for (const bound of bounds) if ((buckets.get(bound) ?? 0) >= q * total) return { bound, total };
  return { bound: Infinity, total };
}

/** A Prometheus gauge's value (the first sample of that name), or NaN. */
export function gauge(text: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : NaN;
}

export async function scrape(url: string): Promise<string> {
  const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(30_000) });
  return res.text();
}

/** etcd's resident memory and database size (file and in use), from its /metrics. */
export async function etcdFigures(endpoint: string): Promise<{ rssMb: number; dbMb: number; dbInUseMb: number }> {
  const text = await scrape(endpoint);
  const mb = (name: string) => gauge(text, name) / 2 ** 20;
  return { rssMb: mb('process_resident_memory_bytes'), dbMb: mb('etcd_mvcc_db_total_size_in_bytes'), dbInUseMb: mb('etcd_mvcc_db_total_size_in_use_in_bytes') };
}
