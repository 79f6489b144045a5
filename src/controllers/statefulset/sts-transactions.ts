// A StatefulSet's Transactions: 'launch' for a new set and 'scale' when spec.replicas changes,
// both done once every desired pod is ready; 'update' for a rollout (a new update revision
// under RollingUpdate), done once every pod at or above the partition runs it and is ready. A
// newer rollout supersedes an unfinished one. The recorder makes every call idempotent.
import type { TransactionRecorder } from '../transactions/recorder.js';
import type { StatefulSet, StatefulSetStatus } from './types.js';

/** A whole ordered rollout may take far longer than one of the Deployment's rolling steps. */
const ROLLOUT_LIFE_SECONDS = 1800;

export class StatefulSetOperations {
  private readonly lastDesired = new Map<string, number>();
  /** The update revision of the last rollout begun, by uid. */
  private readonly rollout = new Map<string, string>();

  constructor(private readonly tx: TransactionRecorder) {}

  track(set: Readonly<StatefulSet>, status: Readonly<StatefulSetStatus>): void {
    const uid = set.metadata.uid ?? '';
    const desired = set.spec.replicas ?? 1;
    const previous = this.lastDesired.get(uid);
    this.lastDesired.set(uid, desired);
    if (previous === undefined && set.status?.observedGeneration === undefined) {
      void this.tx.begin(set, 'launch', { reason: `created with ${desired} replicas`, total: desired, done: 0 });
    } else if (previous !== undefined && previous !== desired) {
      void this.tx.begin(set, 'scale', { reason: `replicas changed from ${previous} to ${desired}`, total: desired, done: 0, supersede: true });
    }
    const ready = Math.min(status.readyReplicas, desired);
    const complete = status.readyReplicas === desired && status.replicas === desired;
    for (const operation of ['launch', 'scale'] as const) {
      if (!this.tx.isOpen(set, operation)) continue;
      void this.tx.progress(set, operation, ready, desired);
      if (complete) void this.tx.finish(set, operation, 'Succeeded', `${ready} of ${desired} replicas ready`);
    }
    this.trackRollout(set, status, desired);
  }

  forget(uid: string): void {
    this.lastDesired.delete(uid);
    this.rollout.delete(uid);
  }

  private trackRollout(set: Readonly<StatefulSet>, status: Readonly<StatefulSetStatus>, desired: number): void {
    const uid = set.metadata.uid ?? '';
    const revision = status.updateRevision ?? '';
    const rolling = (set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
    const partition = Math.min(set.spec.updateStrategy?.rollingUpdate?.partition ?? 0, desired);
    const total = desired - partition;
    const inProgress = rolling && status.currentRevision !== revision && set.status?.updateRevision !== undefined;
    if (inProgress && this.rollout.get(uid) !== revision) {
      const superseded = this.rollout.has(uid) && this.tx.isOpen(set, 'update');
      this.rollout.set(uid, revision);
      void this.tx.begin(set, 'update', {
        reason: `rolling update to revision ${revision}` + (partition > 0 ? ` (ordinals from ${partition})` : ''),
        total,
        done: 0,
        lifePeriodSeconds: ROLLOUT_LIFE_SECONDS,
        supersede: superseded,
      });
    }
    if (this.rollout.get(uid) !== revision || !this.tx.isOpen(set, 'update')) return;
    const updated = Math.min(status.updatedReplicas, total);
    void this.tx.progress(set, 'update', updated, total);
    if (updated >= total && status.readyReplicas >= desired) {
      // The revision stays remembered: a partitioned rollout never makes it current, and must not begin again.
      void this.tx.finish(set, 'update', 'Succeeded', `${updated} pod(s) at revision ${revision}`);
    }
  }
}
