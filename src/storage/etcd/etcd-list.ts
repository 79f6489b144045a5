// Store.list over etcd ranges. Every page of a paged list reads at the revision of the first page
// (etcd keeps MVCC history until compaction), so unlike SQLite the pages form one consistent
// snapshot; once that revision is compacted a continued page fails with RevisionExpiredError,
// which the API answers with 410 as kube-apiserver does.
import type { IKeyValue, IRangeRequest, IRangeResponse } from 'etcd3';
import type { KubeObject } from '../../api/meta.js';
import { decodeContinueToken, encodeContinueToken } from '../continue-token.js';
import { RevisionExpiredError } from '../errors.js';
import type { ListOptions, ObjectFilter } from '../store.js';
import { type EtcdKeys, keyAfter } from './etcd-keys.js';
import { decodeValue } from './etcd-values.js';

// Keys per etcd range when the caller wants everything: bounds the size of one gRPC reply.
const CHUNK = 1_000;

export interface ListHost {
  keys: EtcdKeys;
  range(request: IRangeRequest): Promise<IRangeResponse>;
  /** The newest compaction this store knows of. */
  compacted(): number;
}

/** A page as etcd returned its values, plus the parsed objects when a filter needed them. */
export interface KvPage {
  kvs: IKeyValue[];
  objects?: KubeObject[];
  revision: number;
  continue?: string;
  remainingItemCount?: number;
}

interface Scan {
  host: ListHost;
  start: Buffer;
  end: Buffer;
  /** 0: the newest revision, learnt from the first reply. */
  revision: number;
  limit: number;
}

export async function listKvs(host: ListHost, options: ListOptions): Promise<KvPage> {
  const scan = startOf(host, options);
  try {
    return options.filter === undefined ? await scanAll(scan) : await scanFiltered(scan, options.filter);
  } catch (error) {
    if (error instanceof RevisionExpiredError) throw new RevisionExpiredError(scan.revision, Math.max(host.compacted(), scan.revision + 1));
    throw error;
  }
}

function startOf(host: ListHost, options: ListOptions): Scan {
  const limit = options.limit !== undefined && options.limit > 0 ? Math.floor(options.limit) : 0;
  const end = host.keys.rangeEnd(options.prefix);
  if (options.continue === undefined || options.continue === '') {
    // An Exact read names its revision; etcd answers it until compaction, as for a continued page.
    const revision = options.revision ?? 0;
    if (revision > 0 && revision < host.compacted()) throw new RevisionExpiredError(revision, host.compacted());
    return { host, start: host.keys.full(options.prefix), end, revision, limit };
  }
  const position = decodeContinueToken(options.continue, options.prefix);
  const compacted = host.compacted();
  if (position.revision < compacted) throw new RevisionExpiredError(position.revision, compacted);
  return { host, start: keyAfter(host.keys.full(position.key)), end, revision: position.revision, limit };
}

/** One etcd range at the scan's revision; the first fixes the revision for the rest. */
async function read(scan: Scan, limit: number): Promise<IRangeResponse> {
  const response = await scan.host.range({ key: scan.start, range_end: scan.end, revision: scan.revision, limit });
  if (scan.revision === 0) scan.revision = Number(response.header.revision);
  return response;
}

async function scanAll(scan: Scan): Promise<KvPage> {
  if (scan.limit > 0) {
    const response = await read(scan, scan.limit);
    const { kvs } = response;
    const last = kvs[kvs.length - 1];
    if (!response.more || last === undefined) return { kvs, revision: scan.revision };
    const token = encodeContinueToken({ key: scan.host.keys.strip(last.key), revision: scan.revision });
    // etcd's count is every key in the range, whatever the limit.
    return { kvs, revision: scan.revision, continue: token, remainingItemCount: Number(response.count) - kvs.length };
  }
  const kvs: IKeyValue[] = [];
  for (;;) {
    const response = await read(scan, CHUNK);
    for (const kv of response.kvs) kvs.push(kv);
    const last = response.kvs[response.kvs.length - 1];
    if (!response.more || last === undefined) return { kvs, revision: scan.revision };
    scan.start = keyAfter(last.key);
  }
}

async function scanFiltered(scan: Scan, filter: ObjectFilter): Promise<KvPage> {
  const kvs: IKeyValue[] = [];
  const objects: KubeObject[] = [];
  let lastKey: Buffer | undefined;
  for (;;) {
    const response = await read(scan, CHUNK);
    for (const kv of response.kvs) {
      // One more key after a full page is what says another page exists.
      if (scan.limit !== 0 && objects.length === scan.limit) return filteredPage(scan, kvs, objects, lastKey);
      const object = decodeValue(kv.value, kv.mod_revision);
      if (!filter(object)) continue;
      kvs.push(kv);
      objects.push(object);
      lastKey = kv.key;
    }
    const last = response.kvs[response.kvs.length - 1];
    if (!response.more || last === undefined) return { kvs, objects, revision: scan.revision };
    scan.start = keyAfter(last.key);
  }
}

function filteredPage(scan: Scan, kvs: IKeyValue[], objects: KubeObject[], lastKey: Buffer | undefined): KvPage {
  if (lastKey === undefined) return { kvs, objects, revision: scan.revision };
  const token = encodeContinueToken({ key: scan.host.keys.strip(lastKey), revision: scan.revision });
  return { kvs, objects, revision: scan.revision, continue: token };
}
