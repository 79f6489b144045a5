// The garbage collector's part in transactions: every owner whose dependents it deletes (or
// orphans) gets one 'delete' transaction, begun when the collector starts on it, advanced as
// dependents go and finished when none is left. Progress writes are coalesced (at most one a
// second per owner), so deleting 10,000 pods costs a handful of transaction writes.
import type { KubeObject } from '../../api/meta.js';
import type { Logger } from '../../client/index.js';
import type { TransactionRecorder } from '../transactions/recorder.js';
import type { GraphNode } from './graph.js';

const PROGRESS_INTERVAL_MS = 1000;

interface Tracked {
  /** Only what the recorder needs: the owner may be gone already. */
  target: KubeObject;
  verb: 'deleted' | 'orphaned';
  total: number;
  remaining: Set<string>;
  timer: NodeJS.Timeout | undefined;
}

export class DeletionProgress {
  private readonly tracked = new Map<string, Tracked>();

  constructor(
    private readonly recorder: TransactionRecorder,
    private readonly logger: Logger,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
  ) {}

  /** Opens the owner's transaction over its current dependents; nothing when it has none or one is open. */
  start(owner: GraphNode, reason: string, verb: Tracked['verb'] = 'deleted'): void {
    if (this.tracked.has(owner.uid) || owner.dependents.size === 0) return;
    const remaining = new Set([...owner.dependents].map((dependent) => dependent.uid));
    const tracked: Tracked = { target: targetOf(owner.object), verb, total: remaining.size, remaining, timer: undefined };
    this.tracked.set(owner.uid, tracked);
    this.logger.info(`${verb === 'orphaned' ? 'orphaning' : 'deleting'} dependents`, {
      owner: `${owner.object.kind}/${owner.name}`,
      namespace: owner.namespace,
      dependents: tracked.total,
      reason,
    });
    void this.recorder.begin(tracked.target, 'delete', { reason, total: tracked.total, done: 0 });
  }

  isTracking(ownerUid: string): boolean {
    return this.tracked.has(ownerUid);
  }

  /** One dependent of the owner is done with (deleted, or no longer referring to it). */
  detached(ownerUid: string, dependentUid: string): void {
    const tracked = this.tracked.get(ownerUid);
    if (!tracked || !tracked.remaining.delete(dependentUid)) return;
    if (tracked.remaining.size === 0) {
      this.finish(ownerUid, tracked);
      return;
    }
    if (tracked.timer) return;
    tracked.timer = setTimeout(() => {
      tracked.timer = undefined;
      if (this.tracked.get(ownerUid) !== tracked) return;
      void this.recorder.progress(tracked.target, 'delete', tracked.total - tracked.remaining.size, tracked.total);
    }, this.intervalMs);
    tracked.timer.unref();
  }

  stop(): void {
    for (const tracked of this.tracked.values()) if (tracked.timer) clearTimeout(tracked.timer);
    this.tracked.clear();
  }

  private finish(ownerUid: string, tracked: Tracked): void {
    if (tracked.timer) clearTimeout(tracked.timer);
    this.tracked.delete(ownerUid);
    const message = `${tracked.verb} ${tracked.total} dependent${tracked.total === 1 ? '' : 's'}`;
    void this.recorder
      .progress(tracked.target, 'delete', tracked.total, tracked.total)
      .then(() => this.recorder.finish(tracked.target, 'delete', 'Succeeded', message));
  }
}

function targetOf(object: Readonly<KubeObject>): KubeObject {
  const metadata: KubeObject['metadata'] = { name: object.metadata.name ?? '', uid: object.metadata.uid ?? '' };
  if (object.metadata.namespace !== undefined) metadata.namespace = object.metadata.namespace;
  return { apiVersion: object.apiVersion, kind: object.kind, metadata };
}
