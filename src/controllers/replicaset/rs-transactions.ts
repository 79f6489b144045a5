// Transactions of a stand-alone ReplicaSet (one no Deployment controls; a Deployment's sets are
// recorded on the Deployment): 'launch' for a new set, 'scale' when spec.replicas changes.
// Progress is ready/desired; the operation succeeds once every desired pod is ready. And for
// every set, a 'reschedule' on its workload for each lost pod a pass replaced, read from what
// the pass reports it created.
import type { KubeObject } from '../../api/meta.js';
import type { TransactionRecorder } from '../transactions/recorder.js';
import type { Replacement } from './plan.js';
import { controllerRefOf, objectFromRef, type ReplicaSet, type ReplicaSetStatus } from './types.js';
import type { Pod } from '../../api/core/index.js';

export class ReplicaSetOperations {
  /** spec.replicas as last reconciled, by uid: a change is a scale. */
  private readonly lastDesired = new Map<string, number>();

  constructor(private readonly transactions: TransactionRecorder) {}

  /** Called on every reconcile with the status just computed. */
  track(rs: Readonly<ReplicaSet>, status: ReplicaSetStatus): void {
    if (controllerRefOf(rs)) return;
    const uid = rs.metadata.uid ?? '';
    const desired = rs.spec.replicas ?? 1;
    const previous = this.lastDesired.get(uid);
    this.lastDesired.set(uid, desired);
    if (previous === undefined) {
      // First sight in this process: a set never reconciled is a launch; one whose spec moved on
      // since its status was written (we were down) and whose size differs is a scale.
      const observed = rs.status?.observedGeneration;
      if (observed === undefined) {
        void this.transactions.begin(rs, 'launch', { reason: `created with ${desired} replicas`, total: desired, done: 0 });
      } else if (observed !== rs.metadata.generation && (rs.status?.replicas ?? 0) !== desired) {
        this.beginScale(rs, rs.status?.replicas ?? 0, desired);
      }
    } else if (previous !== desired) {
      this.beginScale(rs, previous, desired);
    }
    const ready = status.readyReplicas ?? 0;
    const complete = ready === desired && status.replicas === desired;
    for (const operation of ['launch', 'scale'] as const) {
      if (!this.transactions.isOpen(rs, operation)) continue;
      void this.transactions.progress(rs, operation, ready, desired);
      if (complete) void this.transactions.finish(rs, operation, 'Succeeded', `${ready} of ${desired} replicas ready`);
    }
  }

  /** A pass created these pods; those that replace a lost pod are reschedules. */
  rescheduled(rs: Readonly<ReplicaSet>, created: ReadonlyArray<{ item: Replacement; object: Readonly<Pod> }>): void {
    for (const { item, object } of created) {
      const { lost } = item;
      if (!lost) continue;
      const what = lost.cause === 'failed' ? `pod ${lost.name} failed on node ${lost.node}` : `pod ${lost.name} on node ${lost.node} was deleted`;
      const message = `replaced by pod ${object.metadata.name}` + (item.annotations ? `, held for node ${lost.node}` : '');
      void this.transactions.once(workloadOf(rs), 'reschedule', { reason: what, total: 1, done: 1, message }, 'Succeeded', message);
    }
  }

  /** The set is gone: whatever it was doing will not finish. */
  abandon(rs: Readonly<ReplicaSet>): void {
    for (const operation of ['launch', 'scale'] as const) void this.transactions.finish(rs, operation, 'Failed', 'the ReplicaSet was deleted');
    this.forget(rs.metadata.uid);
  }

  forget(uid: string | undefined): void {
    if (!uid) return;
    this.lastDesired.delete(uid);
  }

  private beginScale(rs: Readonly<ReplicaSet>, from: number, to: number): void {
    void this.transactions.begin(rs, 'scale', { reason: `replicas changed from ${from} to ${to}`, total: to, done: 0, supersede: true });
  }
}

/** The workload a reschedule is recorded on: the controlling Deployment, else the set. */
function workloadOf(rs: Readonly<ReplicaSet>): KubeObject {
  const ref = controllerRefOf(rs);
  return ref && ref.kind === 'Deployment' ? objectFromRef(ref, rs.metadata.namespace) : rs;
}
