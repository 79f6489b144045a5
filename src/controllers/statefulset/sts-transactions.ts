// A StatefulSet's Transactions, observed on the StatefulSets' informer rather than called from
// the reconcile: 'launch' for a new set and 'scale' when spec.replicas changes, both done once
// the written status shows every desired pod ready for the current generation; 'update' for a
// rollout (a new status.updateRevision under RollingUpdate), done once every pod at or above
// the partition runs it and is ready. A newer rollout supersedes an unfinished one. Only the
// farm member that owns the set's key records; one that first sees a set still launching whose
// launch nobody recorded (a restart, a shard taken over) begins it then.
import type { Informer } from '../../client/index.js';
import { ofOwnedKeys } from '../shape/owned-events.js';
import type { BeginOptions, TransactionRecorder } from '../transactions/recorder.js';
import type { StatefulSet } from './types.js';

function launchOf(set: Readonly<StatefulSet>): BeginOptions {
  const desired = set.spec.replicas ?? 1;
  return { reason: `created with ${desired} replicas`, total: desired, done: 0 };
}

/** A whole ordered rollout may take far longer than one of the Deployment's rolling steps. */
const ROLLOUT_LIFE_SECONDS = 1800;

export class StatefulSetOperations {
  /** The update revision of the last rollout begun, by uid. */
  private readonly rollout = new Map<string, string>();

  constructor(private readonly tx: TransactionRecorder) {}

  /** `owns`: whether this process reconciles the key. */
  observe(sets: Informer<StatefulSet>, owns: (key: string) => boolean): void {
    sets.addEventHandler(
      ofOwnedKeys(owns, {
        onAdd: (set) => {
          if (set.status?.observedGeneration === undefined) this.beginLaunch(set);
          else this.catchUpLaunch(set);
          this.settle(set);
        },
        onUpdate: (old, set) => {
          const before = old.spec.replicas ?? 1;
          const desired = set.spec.replicas ?? 1;
          if (before !== desired) {
            void this.tx.begin(set, 'scale', { reason: `replicas changed from ${before} to ${desired}`, total: desired, done: 0, supersede: true });
          } else this.catchUpLaunch(set);
          this.settle(set);
        },
        onDelete: (set) => this.rollout.delete(set.metadata.uid ?? ''),
      }),
    );
  }

  private beginLaunch(set: Readonly<StatefulSet>): void {
    void this.tx.begin(set, 'launch', launchOf(set));
  }

  /** A set still launching whose launch nobody recorded (it was created while no member watched). */
  private catchUpLaunch(set: Readonly<StatefulSet>): void {
    const created = set.metadata.creationTimestamp;
    if (!created || (set.status?.observedGeneration ?? 0) > 1 || allReady(set)) return;
    this.tx.beginUnlessRecordedSince(set, 'launch', created, launchOf(set));
  }

  /** Progress of whatever is open, and its end once the written status shows it done. */
  private settle(set: Readonly<StatefulSet>): void {
    const desired = set.spec.replicas ?? 1;
    const ready = Math.min(set.status?.readyReplicas ?? 0, desired);
    for (const operation of ['launch', 'scale'] as const) {
      if (!this.tx.isOpen(set, operation)) continue;
      void this.tx.progress(set, operation, ready, desired);
      if (allReady(set)) void this.tx.finish(set, operation, 'Succeeded', `${ready} of ${desired} replicas ready`);
    }
    this.settleRollout(set, desired);
  }

  private settleRollout(set: Readonly<StatefulSet>, desired: number): void {
    const uid = set.metadata.uid ?? '';
    const status = set.status;
    const revision = status?.updateRevision;
    if (!status || revision === undefined) return;
    const rolling = (set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
    const partition = Math.min(set.spec.updateStrategy?.rollingUpdate?.partition ?? 0, desired);
    const total = desired - partition;
    if (rolling && status.currentRevision !== revision && this.rollout.get(uid) !== revision) {
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
    const updated = Math.min(status.updatedReplicas ?? 0, total);
    void this.tx.progress(set, 'update', updated, total);
    if (updated >= total && (status.readyReplicas ?? 0) >= desired) {
      // The revision stays remembered: a partitioned rollout never makes it current, and must not begin again.
      void this.tx.finish(set, 'update', 'Succeeded', `${updated} pod(s) at revision ${revision}`);
    }
  }
}

/** The written status is of the current generation and shows every desired pod, each ready. */
function allReady(set: Readonly<StatefulSet>): boolean {
  const desired = set.spec.replicas ?? 1;
  const status = set.status;
  return (
    status?.observedGeneration !== undefined &&
    status.observedGeneration >= (set.metadata.generation ?? 0) &&
    status.readyReplicas === desired &&
    status.replicas === desired
  );
}
