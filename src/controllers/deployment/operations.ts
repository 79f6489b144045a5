// A Deployment's transactions: 'launch' for a new Deployment, 'scale' when spec.replicas
// changes, and one 'update' per rolling step (each time the controller resizes the new or an
// old ReplicaSet during a rollout). Launch and scale progress as available/desired, a step as
// the new set's ready/desired; all end Succeeded when the rollout completes, Failed when the
// progress deadline passes.
import type { ReplicaSet } from '../replicaset/types.js';
import type { TransactionRecorder } from '../transactions/recorder.js';
import { desiredReplicas } from './replica-math.js';
import { deploymentComplete, getCondition } from './status.js';
import { PROGRESSING, reasons, type Deployment, type DeploymentStatus } from './types.js';

export class DeploymentOperations {
  /** spec.replicas as last reconciled, by uid. */
  private readonly lastDesired = new Map<string, number>();
  /** The new set of the rollout whose step is open, by uid. */
  private readonly stepOf = new Map<string, string>();

  constructor(private readonly transactions: TransactionRecorder) {}

  /** At the start of a pass. `scaledFrom`: the size the active sets were last scaled for, when it differs. */
  observe(d: Readonly<Deployment>, scaledFrom: number | undefined): void {
    const uid = d.metadata.uid ?? '';
    const desired = desiredReplicas(d);
    const previous = this.lastDesired.get(uid);
    this.lastDesired.set(uid, desired);
    if (previous === undefined && d.status?.observedGeneration === undefined) {
      void this.transactions.begin(d, 'launch', { reason: `created with ${desired} replicas`, total: desired, done: 0 });
      return;
    }
    const from = previous !== undefined && previous !== desired ? previous : previous === undefined ? scaledFrom : undefined;
    if (from === undefined) return;
    void this.transactions.begin(d, 'scale', { reason: `replicas changed from ${from} to ${desired}`, total: desired, done: 0, supersede: true });
  }

  /** The controller resized a set as part of a rollout: the previous step (if any) is done, this one starts. */
  step(d: Readonly<Deployment>, newRS: Readonly<ReplicaSet> | undefined, reason: string): void {
    const uid = d.metadata.uid ?? '';
    const rollout = newRS?.metadata.name ?? '';
    // A step of the same rollout ends well; one of an earlier rollout is superseded (Failed).
    if (this.stepOf.get(uid) === rollout) void this.transactions.finish(d, 'update', 'Succeeded', `next step: ${reason}`);
    this.stepOf.set(uid, rollout);
    void this.transactions.begin(d, 'update', { reason, total: desiredReplicas(d), done: newRS?.status?.readyReplicas ?? 0, supersede: true });
  }

  /** At the end of a pass, with the status just computed. */
  settle(d: Readonly<Deployment>, status: Readonly<DeploymentStatus>, newRS: Readonly<ReplicaSet> | undefined): void {
    const uid = d.metadata.uid ?? '';
    const desired = desiredReplicas(d);
    const available = status.availableReplicas ?? 0;
    const complete = deploymentComplete(d, status);
    const progress = getCondition(status, PROGRESSING);
    const timedOut = progress?.reason === reasons.timedOut;
    for (const operation of ['launch', 'scale', 'update'] as const) {
      if (!this.transactions.isOpen(d, operation)) continue;
      const done = operation === 'update' ? (newRS?.status?.readyReplicas ?? 0) : available;
      void this.transactions.progress(d, operation, Math.min(done, desired), desired);
      if (complete) {
        void this.transactions.finish(d, operation, 'Succeeded', operation === 'update' ? 'rollout complete' : `${available} of ${desired} replicas available`);
        if (operation === 'update') this.stepOf.delete(uid);
      } else if (timedOut) {
        void this.transactions.finish(d, operation, 'Failed', progress?.message ?? 'progress deadline exceeded');
        if (operation === 'update') this.stepOf.delete(uid);
      }
    }
  }

  /** The Deployment is gone: whatever it was doing will not finish. */
  abandon(d: Readonly<Deployment>): void {
    for (const operation of ['launch', 'scale', 'update'] as const) void this.transactions.finish(d, operation, 'Failed', 'the Deployment was deleted');
    this.forget(d.metadata.uid);
  }

  forget(uid: string | undefined): void {
    if (!uid) return;
    this.lastDesired.delete(uid);
    this.stepOf.delete(uid);
  }
}
