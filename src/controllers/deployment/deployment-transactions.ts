// A Deployment's Transactions, observed on the Deployments' and ReplicaSets' informers rather
// than called from the reconcile: 'launch' for a Deployment the controller has not yet written
// status for, 'scale' when spec.replicas changes, and one 'update' per rollout step — read from
// the controller's writes of the sets: a new set created beside active old ones, or a set whose
// spec.replicas a rollout pass changed (the resizes of a scaling pass are the 'scale' itself).
// Launch and scale progress as available/desired, a step as the new set's ready/desired; all end
// Succeeded when the written status shows the rollout complete, Failed when it shows
// ProgressDeadlineExceeded or the Deployment is deleted. Only the farm member that owns the
// Deployment's key records them.
import { indexers, objectKey, type Informer } from '../../client/index.js';
import { ofOwnedKeys } from '../shape/owned-events.js';
import { controllerRefOf } from '../../api/owner-references.js';
import type { ReplicaSet } from '../replicaset/types.js';
import { CONTROLLER_UID_INDEX } from '../shape/indexes.js';
import type { TransactionRecorder } from '../transactions/recorder.js';
import { desiredReplicas, filterActive, specReplicas } from './replica-math.js';
import { splitNewAndOld } from './revisions.js';
import { scaledFor, scalingEventFrom } from './scale-plan.js';
import { deploymentComplete, getCondition } from './status.js';
import { PROGRESSING, reasons, type Deployment } from './types.js';

const OPERATIONS = ['launch', 'scale', 'update'] as const;

export class DeploymentOperations {
  /** The new set of the rollout whose step is open, by the Deployment's uid. */
  private readonly stepOf = new Map<string, string>();

  constructor(
    private readonly transactions: TransactionRecorder,
    private readonly deployments: Informer<Deployment>,
    private readonly sets: Informer<ReplicaSet>,
  ) {
    sets.addIndexer(CONTROLLER_UID_INDEX, indexers.controllerUid);
  }

  /** `owns`: whether this process reconciles the Deployment's key. */
  observe(owns: (key: string) => boolean): void {
    const { deployments, sets } = this;
    deployments.addEventHandler(
      ofOwnedKeys(owns, {
        onAdd: (d) => {
          this.firstSight(d);
          this.settle(d);
        },
        onUpdate: (old, d) => {
          const from = desiredReplicas(old);
          if (from !== desiredReplicas(d) && !d.metadata.deletionTimestamp) this.beginScale(d, from);
          this.settle(d);
        },
        // The Deployment is gone: whatever it was doing will not finish.
        onDelete: (d) => {
          for (const operation of OPERATIONS) void this.transactions.finish(d, operation, 'Failed', 'the Deployment was deleted');
          this.stepOf.delete(d.metadata.uid ?? '');
        },
      }),
    );
    /** The set's controlling Deployment, when this process owns its key. */
    const ownerOf = (rs: Readonly<ReplicaSet>): Readonly<Deployment> | undefined => {
      const ref = controllerRefOf(rs);
      const d = ref?.kind === 'Deployment' ? deployments.getByName(rs.metadata.namespace, ref.name) : undefined;
      return d && d.metadata.uid === ref?.uid && owns(objectKey(d)) ? d : undefined;
    };
    sets.addEventHandler({
      onAdd: (rs) => {
        // The first list shows sets made before this process started, not a creation.
        const d = sets.hasSynced() ? ownerOf(rs) : undefined;
        if (d && specReplicas(rs) > 0 && filterActive(this.setsOf(d)).some((other) => other.metadata.uid !== rs.metadata.uid)) this.step(d, rs);
      },
      onUpdate: (old, rs) => {
        if (specReplicas(old) === specReplicas(rs)) return; // status writes, mostly
        const d = ownerOf(rs);
        if (d && isRolloutResize(d, old, rs)) this.step(d, rs);
      },
    });
  }

  private setsOf(d: Readonly<Deployment>): Readonly<ReplicaSet>[] {
    return this.sets.byIndex(CONTROLLER_UID_INDEX, d.metadata.uid ?? '');
  }

  /**
   * Never reconciled: a launch. Reconciled before this process saw it (a restart): a scale when
   * its active sets were last scaled for another size, read once the sets' cache is filled.
   */
  private firstSight(d: Readonly<Deployment>): void {
    const desired = desiredReplicas(d);
    if (d.status?.observedGeneration === undefined) {
      void this.transactions.begin(d, 'launch', { reason: `created with ${desired} replicas`, total: desired, done: 0 });
      return;
    }
    if (d.metadata.deletionTimestamp) return;
    const check = () => {
      const current = this.deployments.getByName(d.metadata.namespace, d.metadata.name ?? '');
      if (!current || current.metadata.uid !== d.metadata.uid) return;
      const from = scalingEventFrom(current, this.setsOf(current));
      if (from !== undefined) this.beginScale(current, from);
    };
    if (this.sets.hasSynced()) check();
    else void this.sets.waitForSync().then(check, () => undefined);
  }

  private beginScale(d: Readonly<Deployment>, from: number): void {
    const desired = desiredReplicas(d);
    void this.transactions.begin(d, 'scale', { reason: `replicas changed from ${from} to ${desired}`, total: desired, done: 0, supersede: true });
  }

  /** The controller resized `rs` in a rollout: the previous step (if any) is done, this one starts. */
  private step(d: Readonly<Deployment>, rs: Readonly<ReplicaSet>): void {
    const uid = d.metadata.uid ?? '';
    const { newRS } = splitNewAndOld(d, this.setsOf(d));
    const which = newRS?.metadata.uid === rs.metadata.uid ? 'new' : 'old';
    const reason = `scale ${which} replica set ${rs.metadata.name} to ${specReplicas(rs)}`;
    const rollout = newRS?.metadata.name ?? '';
    // A step of the same rollout ends well; one of an earlier rollout is superseded (Failed).
    if (this.stepOf.get(uid) === rollout) void this.transactions.finish(d, 'update', 'Succeeded', `next step: ${reason}`);
    this.stepOf.set(uid, rollout);
    void this.transactions.begin(d, 'update', { reason, total: desiredReplicas(d), done: newRS?.status?.readyReplicas ?? 0, supersede: true });
  }

  /** Progress, and the end, as the written status shows them. */
  private settle(d: Readonly<Deployment>): void {
    // Most events are of Deployments with nothing open: those cost no more than this.
    const open = OPERATIONS.filter((operation) => this.transactions.isOpen(d, operation));
    if (open.length === 0) return;
    const status = d.status ?? {};
    const desired = desiredReplicas(d);
    const available = status.availableReplicas ?? 0;
    const complete = deploymentComplete(d, status);
    const progress = getCondition(status, PROGRESSING);
    // A status written for an older generation ends nothing: a rollout that once timed out keeps
    // ProgressDeadlineExceeded until the controller's pass for a new template writes its own, and
    // the step that pass opened (a new set) must not be failed by the old verdict before it.
    const current = (status.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
    const timedOut = current && progress?.reason === reasons.timedOut;
    const newRS = open.includes('update') ? splitNewAndOld(d, this.setsOf(d)).newRS : undefined;
    for (const operation of open) {
      const done = operation === 'update' ? (newRS?.status?.readyReplicas ?? 0) : available;
      void this.transactions.progress(d, operation, Math.min(done, desired), desired);
      if (!complete && !timedOut) continue;
      if (complete)
        void this.transactions.finish(d, operation, 'Succeeded', operation === 'update' ? 'rollout complete' : `${available} of ${desired} replicas available`);
      else void this.transactions.finish(d, operation, 'Failed', progress?.message ?? 'progress deadline exceeded');
      if (operation === 'update') this.stepOf.delete(d.metadata.uid ?? '');
    }
  }
}

/**
 * Whether a resize (spec.replicas changed) was made by a rollout pass. A scaling pass's resizes
 * are the 'scale' Transaction, not steps: those of a paused Deployment, and those that bring an
 * active set last scaled for another size (its desired-replicas annotation) to the new one. A
 * rollout pass runs only when no active set is in that state (scale-plan.ts scalingEventFrom),
 * so the annotation a rollout step rewrites is that of a set at 0 (one rolled back to) or of one
 * that had none (adopted). A resize by someone else (`kubectl scale rs`) reads as a step too.
 */
function isRolloutResize(d: Readonly<Deployment>, old: Readonly<ReplicaSet>, rs: Readonly<ReplicaSet>): boolean {
  if (d.spec.paused) return false;
  const before = scaledFor(old);
  const rescaled = specReplicas(old) > 0 && before !== undefined && before !== scaledFor(rs);
  return !rescaled;
}
