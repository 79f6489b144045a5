// The store itself, checked from the server that holds it (only it can: the file and the
// revision counter are not behind the API). Three things:
//   - SQLite's quick_check of the file (when the store is SQLite);
//   - every object's resourceVersion at or below the revision the walk read at: one above it
//     means the revision counter went backwards, and watches would skip or repeat writes;
//   - no uid held by two objects: a copied row, which the garbage collector would confuse.
// It also hashes every object's identity and revision (FNV-1a 64 over
// `apiVersion/kind/namespace/name/resourceVersion`, as Kubernetes' cache consistency checker
// hashes `namespace/name/resourceVersion`) into the report, so that the reports of two
// servers, or of a restore and its source, can be compared. On etcd each server also keeps a
// watch cache (storage/etcd/etcd-watch-cache.ts), which checks itself against etcd's key count
// before it serves; comparing its hash with this one, as Kubernetes does, is not done yet.
import type { KubeObject } from '../api/meta.js';
import type { Store } from '../storage/store.js';
import type { Finding } from './types.js';

export interface StoreProbe {
  store: Store;
  /** SQLite's quick_check; absent for stores that have none. */
  quickCheck?(): string[];
}

export interface StoreCheckResult {
  /** Set when the store could not be read at all: the round is skipped. */
  unreachable?: string;
  /** Findings that make every other check untrustworthy (a corrupt file): the round stops after these. */
  fatal: boolean;
  findings: Finding[];
  revision?: number;
  hash?: string;
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const PAGE = 500;

function fnv1a64(hash: bigint, text: string): bigint {
  let h = hash;
  for (const byte of Buffer.from(text, 'utf8')) h = BigInt.asUintN(64, (h ^ BigInt(byte)) * FNV_PRIME);
  return h;
}

/** Every stored object, a page at a time, all consistent with one revision. */
async function* storedObjects(store: Store): AsyncGenerator<KubeObject[], number> {
  if (store.listStream) {
    const stream = store.listStream({ prefix: '/registry/' });
    try {
      for (let page = stream.next(); page !== undefined; page = stream.next()) yield JSON.parse(`[${page}]`) as KubeObject[];
    } finally {
      stream.close();
    }
    return stream.revision;
  }
  let result = await store.list({ prefix: '/registry/', limit: PAGE });
  const revision = result.revision;
  yield result.items;
  while (result.continue) {
    result = await store.list({ prefix: '/registry/', limit: PAGE, continue: result.continue });
    yield result.items;
  }
  return revision;
}

function storeFinding(message: string, kind: Finding['kind'] = 'StoreInconsistency'): Finding {
  return { kind, message };
}

async function walk(store: Store): Promise<{ revision: number; hash: string; findings: Finding[] }> {
  const findings: Finding[] = [];
  const owners = new Map<string, string>();
  let hash = FNV_OFFSET;
  let newest = 0;
  let newestName = '';
  const objects = storedObjects(store);
  let next = await objects.next();
  while (!next.done) {
    // Between pages the server's requests go first: this runs on the API server's thread.
    await new Promise((resolve) => setImmediate(resolve));
    for (const object of next.value) {
      const { namespace = '', name = '', uid, resourceVersion = '' } = object.metadata;
      const identity = `${object.apiVersion}/${object.kind}/${namespace}/${name}`;
      hash = fnv1a64(hash, `${identity}/${resourceVersion}\n`);
      if (Number(resourceVersion) > newest) [newest, newestName] = [Number(resourceVersion), identity];
      if (!uid) continue;
      const other = owners.get(uid);
      if (other) findings.push(storeFinding(`uid ${uid} is held by two stored objects: ${other} and ${identity}`));
      else owners.set(uid, identity);
    }
    next = await objects.next();
  }
  const revision = next.value;
  if (newest > revision) findings.push(storeFinding(`${newestName} has resourceVersion ${newest}, above the store's revision ${revision}`));
  return { revision, hash: hash.toString(16).padStart(16, '0'), findings };
}

export async function checkStore(probe: StoreProbe): Promise<StoreCheckResult> {
  try {
    await probe.store.currentRevision();
  } catch (error) {
    return { unreachable: `the store cannot be read: ${(error as Error).message}`, fatal: true, findings: [] };
  }
  let problems: string[];
  try {
    problems = probe.quickCheck?.() ?? [];
  } catch (error) {
    // SQLite answers a damaged file with an error ("database disk image is malformed").
    problems = [(error as Error).message];
  }
  if (problems.length > 0) {
    return { fatal: true, findings: problems.map((problem) => storeFinding(`SQLite quick_check: ${problem}`, 'StoreCorruption')) };
  }
  const { revision, hash, findings } = await walk(probe.store);
  return { fatal: false, findings, revision, hash };
}
