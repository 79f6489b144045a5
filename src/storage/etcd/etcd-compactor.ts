// Compaction of etcd's history, as kube-apiserver does it (storage/etcd3/compact.go): every
// interval, compact to the revision seen one interval earlier, so watches and paged lists keep at
// least one interval of history. Several API servers may share one etcd; the version of
// `compact_rev_key` is the ticket that lets only one of them compact per interval. Its value is
// the revision compacted to ('' = its own revision), which is how every server, and a restarted
// one, knows the oldest revision a watch may start from without asking etcd to fail first.
import type { Etcd3, IRangeResponse } from 'etcd3';
import { RevisionExpiredError } from '../errors.js';

export const COMPACT_REV_KEY = Buffer.from('compact_rev_key');

export interface CompactorHost {
  client: Etcd3;
  /** Runs one etcd call with the store's deadline and error mapping. */
  call<T>(what: string, op: () => Promise<T>): Promise<T>;
}

export class EtcdCompactor {
  /** The newest revision known to be compacted: older ones cannot be read or watched. */
  revision = 0;
  /** The version of compact_rev_key this server last saw (kube-apiserver's "t"). */
  private version = 0;
  /** The revision at the previous tick: what the next tick compacts to. */
  private previousTick = 0;
  private running: Promise<void> | undefined;

  constructor(private readonly host: CompactorHost) {}

  /** Reads compact_rev_key: what was compacted, by this server or another. */
  async refresh(): Promise<number> {
    const response = await this.host.call('read compact_rev_key', () => this.host.client.kv.range({ key: COMPACT_REV_KEY }));
    this.learn(response);
    return this.revision;
  }

  /** One scheduled round: compact to the previous round's revision, unless another server did. */
  tick(currentRevision: number): Promise<void> {
    const target = this.previousTick;
    this.previousTick = currentRevision;
    if (target <= this.revision) return Promise.resolve();
    return this.exclusive(() => this.compactTo(target));
  }

  /** Compacts everything up to the newest revision (tests, and `compact()` without an argument). */
  compactNow(): Promise<void> {
    return this.exclusive(async () => {
      // A stale version (another server compacted meanwhile) fails the ticket once; read and retry.
      if (!(await this.compactTo('now'))) await this.compactTo('now');
    });
  }

  compactUpTo(revision: number): Promise<void> {
    return this.exclusive(async () => {
      if (revision > this.revision && !(await this.compactTo(revision))) await this.compactTo(revision);
    });
  }

  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  /** One compaction at a time; a failed one does not stop the next. */
  private exclusive(run: () => Promise<unknown>): Promise<void> {
    const next = (this.running ?? Promise.resolve()).then(run).then(() => undefined);
    this.running = next.catch(() => undefined);
    return next;
  }

  /** Returns false when another server holds a newer ticket (nothing was compacted). */
  private async compactTo(target: number | 'now'): Promise<boolean> {
    const { client } = this.host;
    const txn = await this.host.call('take the compaction ticket', () =>
      client.kv.txn({
        compare: [{ key: COMPACT_REV_KEY, target: 'Version', result: 'Equal', version: this.version }],
        success: [{ request_put: { key: COMPACT_REV_KEY, value: Buffer.from(target === 'now' ? '' : String(target)) } }],
        failure: [{ request_range: { key: COMPACT_REV_KEY } }],
      }),
    );
    if (!txn.succeeded) {
      const range = txn.responses[0]?.response_range;
      if (range) this.learn(range);
      return false;
    }
    this.version++;
    const revision = target === 'now' ? Number(txn.header.revision) : target;
    try {
      // physical: returns once the backend has dropped the history, so a defragment can reclaim it.
      await this.host.call('compact', () => client.kv.compact({ revision, physical: true }));
    } catch (error) {
      // Someone (etcdctl, another cluster on this etcd) compacted further already.
      if (!(error instanceof RevisionExpiredError)) throw error;
    }
    this.revision = Math.max(this.revision, revision);
    return true;
  }

  private learn(response: IRangeResponse): void {
    const kv = response.kvs[0];
    if (kv === undefined) return;
    this.version = Number(kv.version);
    const value = kv.value.toString('utf8');
    const revision = value === '' ? Number(kv.mod_revision) : Number(value);
    if (Number.isSafeInteger(revision)) this.revision = Math.max(this.revision, revision);
  }
}
