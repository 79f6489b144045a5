// Transactions of a stand-alone ReplicaSet (one no Deployment controls; a Deployment's sets are
// recorded on the Deployment): 'launch' for a new set, 'scale' when spec.replicas changes,
// observed on the sets' informer rather than called from the reconcile. And for every set, a
// 'reschedule' on its workload for each lost pod a pass replaced, read from what the pass's
// carry-out reports it created.
import type { KubeObject } from '../../api/meta.js';
import type { TransactionRecorder } from '../transactions/recorder.js';
import type { Replacement } from './plan.js';
import type { Informer } from '../../client/index.js';
import { ofOwnedKeys } from '../shape/owned-events.js';
import { controllerRefOf, objectFromRef } from '../../api/owner-references.js';
import type { ReplicaSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

export class ReplicaSetOperations {
  constructor(private readonly transactions: TransactionRecorder) {}

  /**
   * Records the stand-alone sets' launches and scales from what the informer shows of them: the
   * reconcile does not call in. `owns`: whether this process reconciles the key (a farm member
   * records only the sets of its own shards).
   */
  observe(sets: Informer<ReplicaSet>, owns: (key: string) => boolean): void {
    sets.addEventHandler(
      ofOwnedKeys(owns, {
        onAdd: (rs) => {
          if (controllerRefOf(rs)) return;
          this.firstSight(rs);
          this.progress(rs);
        },
        onUpdate: (old, rs) => {
          if (controllerRefOf(rs)) {
            // Adopted by a Deployment, whose own Transactions take over.
            if (!controllerRefOf(old))
              for (const operation of ['launch', 'scale'] as const) void this.transactions.finish(rs, operation, 'Failed', 'the ReplicaSet was adopted');
            return;
          }
          const from = old.spec.replicas ?? 1;
          if (from !== (rs.spec.replicas ?? 1)) this.beginScale(rs, from, rs.spec.replicas ?? 1);
          this.progress(rs);
        },
        // The set is gone: whatever it was doing will not finish.
        onDelete: (rs) => {
          if (controllerRefOf(rs)) return;
          for (const operation of ['launch', 'scale'] as const) void this.transactions.finish(rs, operation, 'Failed', 'the ReplicaSet was deleted');
        },
      }),
    );
  }

  /** A set never reconciled is a launch; one whose spec moved on since its status was written (we were down) and whose size differs is a scale. */
  private firstSight(rs: Readonly<ReplicaSet>): void {
    const desired = rs.spec.replicas ?? 1;
    const observed = rs.status?.observedGeneration;
    if (observed === undefined) {
      void this.transactions.begin(rs, 'launch', { reason: `created with ${desired} replicas`, total: desired, done: 0 });
    } else if (observed !== rs.metadata.generation && (rs.status?.replicas ?? 0) !== desired) {
      this.beginScale(rs, rs.status?.replicas ?? 0, desired);
    }
  }

  /**
   * Progress is ready/desired; done once the status written for this generation shows every
   * desired pod ready. The reconcile calls it too: an event seen before the Transactions' own
   * informer had synced, or before a farm member took the set's shard, must not leave one open.
   */
  settle(rs: Readonly<ReplicaSet>): void {
    if (!controllerRefOf(rs)) this.progress(rs);
  }

  private progress(rs: Readonly<ReplicaSet>): void {
    const desired = rs.spec.replicas ?? 1;
    const status = rs.status;
    const ready = status?.readyReplicas ?? 0;
    const complete = status?.observedGeneration === rs.metadata.generation && ready === desired && status?.replicas === desired;
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

  private beginScale(rs: Readonly<ReplicaSet>, from: number, to: number): void {
    void this.transactions.begin(rs, 'scale', { reason: `replicas changed from ${from} to ${to}`, total: to, done: 0, supersede: true });
  }
}

/** The workload a reschedule is recorded on: the controlling Deployment, else the set. */
function workloadOf(rs: Readonly<ReplicaSet>): KubeObject {
  const ref = controllerRefOf(rs);
  return ref && ref.kind === 'Deployment' ? objectFromRef(ref, rs.metadata.namespace) : rs;
}
