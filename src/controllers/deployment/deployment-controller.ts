// The Deployment controller, with Kubernetes' semantics: a Deployment owns one ReplicaSet per
// pod template (named `<deployment>-<pod-template-hash>`) and moves replicas from the old sets
// to the new one by its strategy (RollingUpdate or Recreate), keeping revisions for `kubectl
// rollout history/undo`, conditions for `kubectl rollout status`, and the pause switch.
import {
  indexers, isNotFound, objectKey, resources, TerminalError, WorkQueue,
  type EventRecorder, type Informer, type ReconcileResult, type RunningController,
} from '../../client/index.js';
import { runOwnedQueue, type Controller, type ControllerContext } from '../context.js';
import { claimObjects, orphansByNamespace, ORPHANS_BY_NAMESPACE } from '../replicaset/claim.js';
import { CONTROLLER_UID_INDEX, NAMESPACE_INDEX } from '../replicaset/replicaset-controller.js';
import { labelSelectorOf } from '../replicaset/replicated-kinds.js';
import { controllerRefOf, type ReplicaSet } from '../replicaset/types.js';
import { DeploymentOperations } from './operations.js';
import { rolloutRecreate } from './recreate.js';
import { rolloutRolling } from './rolling.js';
import { deploymentComplete, msUntilDeadline } from './status.js';
import { DeploymentSync } from './sync.js';
import type { Deployment, DeploymentStatus } from './types.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { Pod } from '../../api/core/index.js';

export interface DeploymentControllerOptions {
  /** Deployments reconciled at once. Default 16. */
  workers?: number;
}

export class DeploymentController implements Controller {
  readonly name = 'deployment-controller';
  private readonly deployments: Informer<Deployment>;
  private readonly replicaSets: Informer<ReplicaSet>;
  private readonly pods: Informer<Pod>;
  private readonly queue = new WorkQueue<string>();
  private readonly events: EventRecorder;
  private readonly operations: DeploymentOperations;
  /** Deployments seen deleted, until their key is reconciled (their open transactions end). */
  private readonly deleted = new Map<string, Readonly<Deployment>>();
  private readonly workers: number;
  private running: RunningController | undefined;

  constructor(private readonly ctx: ControllerContext, options: DeploymentControllerOptions = {}) {
    this.workers = options.workers ?? 16;
    this.events = ctx.recorder(this.name);
    this.operations = new DeploymentOperations(ctx.transactions);
    this.deployments = ctx.factory.informerFor<Deployment>(resources.deployments);
    this.deployments.addIndexer(NAMESPACE_INDEX, indexers.namespace);
    this.replicaSets = ctx.factory.informerFor<ReplicaSet>(resources.replicasets);
    this.replicaSets.addIndexer(CONTROLLER_UID_INDEX, indexers.controllerUid);
    this.replicaSets.addIndexer(ORPHANS_BY_NAMESPACE, orphansByNamespace);
    this.pods = ctx.factory.informerFor<Pod>(resources.pods);
    this.pods.addIndexer(CONTROLLER_UID_INDEX, indexers.controllerUid);
    this.deployments.addEventHandler({
      onAdd: (d) => this.queue.add(objectKey(d)),
      onUpdate: (_, d) => this.queue.add(objectKey(d)),
      onDelete: (d) => {
        if (this.ctx.shards.owns(objectKey(d))) this.deleted.set(objectKey(d), d);
        this.queue.add(objectKey(d));
      },
    });
    this.replicaSets.addEventHandler({
      onAdd: (rs) => this.replicaSetChanged(undefined, rs),
      onUpdate: (old, rs) => {
        if (old.metadata.resourceVersion !== rs.metadata.resourceVersion) this.replicaSetChanged(old, rs);
      },
      onDelete: (rs) => this.enqueueOwner(rs),
    });
    this.pods.addEventHandler({ onDelete: (pod) => this.podDeleted(pod) });
  }

  start(): void {
    this.running = runOwnedQueue(this.ctx, {
      name: this.name,
      primary: this.deployments,
      queue: this.queue,
      workers: this.workers,
      reconcile: (key) => this.reconcile(key),
    });
  }

  async stop(): Promise<void> {
    await this.running?.stop();
  }

  // ---- event handlers ----

  private ownerOf(rs: Readonly<ReplicaSet>): Readonly<Deployment> | undefined {
    const ref = controllerRefOf(rs);
    if (!ref || ref.kind !== 'Deployment') return undefined;
    const d = this.deployments.getByName(rs.metadata.namespace, ref.name);
    return d && d.metadata.uid === ref.uid ? d : undefined;
  }

  private enqueueOwner(rs: Readonly<ReplicaSet>): void {
    const d = this.ownerOf(rs);
    if (d) this.queue.add(objectKey(d));
  }

  private replicaSetChanged(old: Readonly<ReplicaSet> | undefined, rs: Readonly<ReplicaSet>): void {
    const ref = controllerRefOf(rs);
    if (old && controllerRefOf(old)?.uid !== ref?.uid) this.enqueueOwner(old);
    if (ref) {
      this.enqueueOwner(rs);
      return;
    }
    if (rs.metadata.deletionTimestamp) return;
    if (old && jsonEqual(old.metadata.labels ?? {}, rs.metadata.labels ?? {}) && !controllerRefOf(old)) return;
    // An orphan: every Deployment that could adopt it looks.
    for (const d of this.deployments.byIndex(NAMESPACE_INDEX, rs.metadata.namespace ?? '')) {
      if (labelSelectorOf(d).matches(rs.metadata.labels)) this.queue.add(objectKey(d));
    }
  }

  /** Recreate waits for the old pods to be gone: each one going is worth a look. */
  private podDeleted(pod: Readonly<Pod>): void {
    const ref = controllerRefOf(pod);
    if (!ref || ref.kind !== 'ReplicaSet') return;
    const rs = this.replicaSets.getByName(pod.metadata.namespace, ref.name);
    const d = rs && rs.metadata.uid === ref.uid ? this.ownerOf(rs) : undefined;
    if (d && d.spec.strategy?.type === 'Recreate') this.queue.add(objectKey(d));
  }

  // ---- reconcile ----

  async reconcile(key: string, now = Date.now()): Promise<ReconcileResult | void> {
    const d = this.deployments.get(key);
    const gone = this.deleted.get(key);
    if (gone && gone.metadata.uid !== d?.metadata.uid) {
      this.deleted.delete(key);
      this.operations.abandon(gone);
    }
    if (!d) return;
    const selector = labelSelectorOf(d);
    if (selector.matchesNothing()) throw new TerminalError(`${key}: the selector cannot be parsed`);
    if (selector.isEmpty()) {
      void this.events.record(d, 'Warning', 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
      return;
    }
    const rsList = await this.claimReplicaSets(d);
    const s = new DeploymentSync(
      { api: this.ctx.api, events: this.events, operations: this.operations, replicaSets: this.replicaSets, pods: this.pods, podsIndex: CONTROLLER_UID_INDEX },
      d, rsList, now,
    );
    try {
      if (d.metadata.deletionTimestamp) {
        const { newRS, oldRSs } = await s.getAllReplicaSetsAndSyncRevision(false);
        await s.syncDeploymentStatus([...oldRSs, ...(newRS ? [newRS] : [])], newRS);
        return;
      }
      await s.checkPausedConditions();
      const scaledFrom = s.scalingEventFrom();
      this.operations.observe(s.d, scaledFrom);
      let status: DeploymentStatus;
      if (s.d.spec.paused || scaledFrom !== undefined) status = await s.sync();
      else if (s.d.spec.strategy?.type === 'Recreate') status = await rolloutRecreate(s);
      else status = await rolloutRolling(s);
      this.operations.settle(s.d, status, s.newRS);
      return this.requeueFor(s.d, status, now);
    } catch (error) {
      if (isNotFound(error) && !this.deployments.get(key)) return; // deleted meanwhile
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
    const owned = this.replicaSets.byIndex(CONTROLLER_UID_INDEX, d.metadata.uid ?? '');
    const orphans = this.replicaSets.byIndex(ORPHANS_BY_NAMESPACE, d.metadata.namespace ?? '');
    const selector = labelSelectorOf(d);
    if (orphans.length === 0 && owned.every((rs) => selector.matches(rs.metadata.labels))) return Promise.resolve(owned);
    return claimObjects<ReplicaSet>({
      api: this.ctx.api,
      resource: resources.replicasets,
      owner: d,
      selector,
      owned,
      orphans,
      canAdopt: async () => {
        const fresh = await this.ctx.api.resource(resources.deployments, d.metadata.namespace).get(d.metadata.name ?? '').catch(() => undefined);
        return fresh !== undefined && fresh.metadata.uid === d.metadata.uid && !fresh.metadata.deletionTimestamp;
      },
    });
  }
}
