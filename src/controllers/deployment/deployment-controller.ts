// The Deployment controller, with Kubernetes' semantics: a Deployment owns one ReplicaSet per
// pod template (named `<deployment>-<pod-template-hash>`) and moves replicas from the old sets
// to the new one by its strategy (RollingUpdate or Recreate), keeping revisions for `kubectl
// rollout history/undo`, conditions for `kubectl rollout status`, and the pause switch. Its
// Transactions are observed on the informers (deployment-transactions.ts): the reconcile records none.
import { indexers, isNotFound, objectKey, resources, TerminalError, type EventRecorder, type Informer, type ReconcileResult } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { CONTROLLER_UID_INDEX } from '../shape/indexes.js';
import { WorkloadController } from '../shape/workload-controller.js';
import { labelSelectorOf } from '../replicaset/replicated-kinds.js';
import { controllerRefOf } from '../../api/owner-references.js';
import type { ReplicaSet } from '../replicaset/types.js';
import { DeploymentOperations } from './deployment-transactions.js';
import { rolloutRecreate } from './recreate.js';
import { rolloutRolling } from './rolling.js';
import { scalingEventFrom } from './scale-plan.js';
import { deploymentComplete, msUntilDeadline } from './status.js';
import { DeploymentSync } from './sync.js';
import type { Deployment, DeploymentStatus } from './types.js';
import type { Pod } from '../../api/core/index.js';

export interface DeploymentControllerOptions {
  /** Deployments reconciled at once. Default 16. */
  workers?: number;
}

export class DeploymentController extends WorkloadController<Deployment> {
  private readonly replicaSets: Informer<ReplicaSet>;
  private readonly pods: Informer<Pod>;
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext, options: DeploymentControllerOptions = {}) {
    super(ctx, {
      name: 'deployment-controller',
      resource: resources.deployments,
      workers: options.workers ?? 16,
    });
    this.events = ctx.recorder(this.name);
    this.replicaSets = this.owns<ReplicaSet>(resources.replicasets, {
      adoptableBy: (d, rs) => labelSelectorOf(d).matches(rs.metadata.labels),
    });
    new DeploymentOperations(ctx.transactions, this.primary, this.replicaSets).observe((key) => ctx.shards.owns(key));
    this.pods = this.watches<Pod>(resources.pods, { onDelete: (pod) => this.podDeleted(pod) });
    this.pods.addIndexer(CONTROLLER_UID_INDEX, indexers.controllerUid);
  }

  /** Recreate waits for the old pods to be gone: each one going is worth a look. */
  private podDeleted(pod: Readonly<Pod>): void {
    const ref = controllerRefOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return;
    const rs = this.replicaSets.getByName(pod.metadata.namespace, ref.name);
    const d = rs && rs.metadata.uid === ref.uid ? this.ownerOf(rs)?.object : undefined;
    if (d && d.spec.strategy?.type === 'Recreate') this.queue.add(objectKey(d));
  }

  // ---- reconcile ----

  async reconcile(key: string, now = Date.now()): Promise<ReconcileResult | void> {
    const d = this.primary.get(key);
    if (!d) return;
    const selector = labelSelectorOf(d);
    if (selector.matchesNothing()) throw new TerminalError(`${key}: the selector cannot be parsed`);
    if (selector.isEmpty()) {
      void this.events.record(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      return;
    }
    const rsList = await this.claimReplicaSets(d);
    const s = new DeploymentSync(
      { api: this.ctx.api, events: this.events, replicaSets: this.replicaSets, pods: this.pods, podsIndex: CONTROLLER_UID_INDEX },
      d,
      rsList,
      now,
    );
    try {
      if (d.metadata.deletionTimestamp) {
        const { newRS, oldRSs } = await s.getAllReplicaSetsAndSyncRevision(false);
        await s.syncDeploymentStatus([...oldRSs, ...(newRS ? [newRS] : [])], newRS);
        return;
      }
      await s.checkPausedConditions();
      let status: DeploymentStatus;
      if (s.d.spec.paused || scalingEventFrom(s.d, s.rsList) !== undefined) status = await s.sync();
      else if (s.d.spec.strategy?.type === 'Recreate') status = await rolloutRecreate(s);
      else status = await rolloutRolling(s);
      return this.requeueFor(s.d, status, now);
    } catch (error) {
      if (isNotFound(error) && !this.primary.get(key)) return; // deleted meanwhile
      throw error;
    }
  }

  /** A Deployment still progressing is looked at again when its progress deadline passes. */
  private requeueFor(d: Readonly<Deployment>, status: DeploymentStatus, now: number): ReconcileResult | void {
    if (deploymentComplete(d, status)) return;
    const left = msUntilDeadline(d, status, now);
    if (left === undefined) return;
    return { requeueAfterMs: Math.max(0, left) + 1000 };
  }

  private claimReplicaSets(d: Readonly<Deployment>): Promise<Readonly<ReplicaSet>[]> {
    return this.claim(d, labelSelectorOf(d), resources.replicasets, this.replicaSets);
  }
}
