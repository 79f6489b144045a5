// The ReplicaSet controller: keeps spec.replicas pods matching the selector, as Kubernetes'
// does. The same core keeps ReplicationControllers (replicated-kinds.ts). Reconciles read only
// the informers' caches; the API sees creates, deletes, adoption patches and status writes. A
// pass is decided by plan.ts and carried out under expectations (shape/pass.ts), which keep a
// lagging cache from causing duplicates.
import {
  Expectations,
  isNotFound,
  resources,
  TerminalError,
  type EventRecorder,
  type Informer,
  type Logger,
  type ReconcileResult,
} from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { WorkloadController, type Owner } from '../shape/workload-controller.js';
import { LostPods } from './lost-pods.js';
import { PodsUntilGone, type InCache } from './pods-until-gone.js';
import { carryOut } from '../shape/pass.js';
import { planReplicaSet } from './plan.js';
import { PodControl, podFromTemplate } from './pod-control.js';
import { isPodActive, isPodFinished } from './pod-state.js';
import { isPodReady, msUntilNextAvailable } from '../../api/core/pod-conditions.js';
import { calculateReplicaSetStatus, statusChanged, statusPatch, type ManageError } from './rs-status.js';
import { ReplicaSetOperations } from './rs-transactions.js';
import { REPLICA_SETS, type ReplicatedKind } from './replicated-kinds.js';
import type { ReplicaSet } from './types.js';
import type { Pod } from '../../api/core/index.js';

export interface ReplicaSetControllerOptions {
  /** Sets reconciled at once. Default 16. */
  workers?: number;
  /** Most pods created or deleted for one set in one pass (Kubernetes' burstReplicas). Default 500. */
  burstReplicas?: number;
}

export class ReplicaSetController extends WorkloadController<ReplicaSet> {
  private readonly pods: Informer<Pod>;
  private readonly expectations = new Expectations();
  private readonly lost = new LostPods();
  /** Finished pods whose deletion is under way. */
  private readonly deletingFinished = new PodsUntilGone();
  /** Whether the pods' cache still holds the pod: once it does not, its deletion has been delivered. */
  private readonly inCache: InCache = (podKey, uid) => this.pods.get(podKey)?.metadata.uid === uid;
  private readonly events: EventRecorder;
  private readonly podControl: PodControl;
  private readonly operations: ReplicaSetOperations;
  private readonly logger: Logger;
  private readonly burstReplicas: number;

  /** `kind`: ReplicaSets by default; REPLICATION_CONTROLLERS runs the same core over ReplicationControllers. */
  constructor(
    ctx: ControllerContext,
    options: ReplicaSetControllerOptions = {},
    private readonly kind: ReplicatedKind = REPLICA_SETS,
  ) {
    super(ctx, {
      name: kind.controllerName,
      resource: kind.resource,
      workers: options.workers ?? 16,
    });
    this.burstReplicas = options.burstReplicas ?? 500;
    this.events = ctx.recorder(this.name);
    this.logger = ctx.logger(this.name);
    this.podControl = new PodControl(ctx.api, this.events);
    this.operations = new ReplicaSetOperations(ctx.transactions);
    this.operations.observe(this.primary, (key) => ctx.shards.owns(key));
    this.pods = this.owns<Pod>(resources.pods, {
      adoptableBy: (rs, pod) => this.kind.selectorOf(rs).matches(pod.metadata.labels),
      expectations: { store: this.expectations, by: 'key' },
      updated: (old, pod, owner) => this.podUpdated(old, pod, owner),
      deleted: (pod, owner) => this.podDeleted(pod, owner),
    });
  }

  // ---- the handlers of its own: minReadySeconds, and the moment a pod starts going ----

  private podUpdated(old: Readonly<Pod>, pod: Readonly<Pod>, owner: Owner<ReplicaSet> | undefined): void {
    const rs = owner?.object;
    if (!rs) return;
    if (pod.metadata.deletionTimestamp) {
      // The moment it turned terminating is an event the cache cannot replay (lost-pods.ts); the pass judges it.
      if (!old.metadata.deletionTimestamp) this.sawGoing(owner.key, pod);
      return;
    }
    // A pod that just became ready becomes available minReadySeconds later: look again then.
    const minReady = rs.spec.minReadySeconds ?? 0;
    if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.queue.addAfter(owner.key, minReady * 1000 + 50);
  }

  /** The pod is gone: by the pass it is in no cache, so its going is noted now (once, if it was seen terminating). */
  private podDeleted(pod: Readonly<Pod>, owner: Owner<ReplicaSet> | undefined): void {
    if (owner?.object) this.sawGoing(owner.key, pod);
  }

  /** Only for a ReplicaSet of this farm member's: another's passes never run here to forget it. */
  private sawGoing(key: string, pod: Readonly<Pod>): void {
    if (this.ctx.shards.owns(key)) this.lost.sawGoing(key, pod);
  }

  // ---- reconcile ----

  async reconcile(key: string, now = Date.now()): Promise<ReconcileResult | void> {
    const rs = this.primary.get(key);
    if (!rs) {
      this.expectations.delete(key);
      this.lost.forget(key);
      return;
    }
    if (this.kind.selectorOf(rs).matchesNothing()) throw new TerminalError(`${key}: the selector cannot be parsed`);
    const needsSync = this.expectations.satisfied(key);
    const claimed = await this.claimPods(rs);
    const active = claimed.filter(isPodActive);
    let manageError: ManageError | undefined;
    if (needsSync && !rs.metadata.deletionTimestamp) manageError = await this.manageReplicas(key, rs, active, claimed.filter(isPodFinished), now);
    const status = calculateReplicaSetStatus(rs, active, manageError, now);
    if (statusChanged(rs.status, status)) {
      try {
        await this.ctx.api
          .resource(this.kind.resource, rs.metadata.namespace)
          .patch(rs.metadata.name ?? '', 'merge', statusPatch(status), { subresource: 'status' });
      } catch (error) {
        if (isNotFound(error)) return; // deleted meanwhile: its delete event brings us back
        throw error;
      }
    }
    this.operations.settle(rs);
    if (manageError) throw new Error(`${key}: ${manageError.message}`);
    const wait = msUntilNextAvailable(active, rs.spec.minReadySeconds ?? 0, now);
    return wait === undefined ? undefined : { requeueAfterMs: wait + 50 };
  }

  private claimPods(rs: Readonly<ReplicaSet>): Promise<Readonly<Pod>[]> {
    return this.claim(rs, this.kind.selectorOf(rs), resources.pods, this.pods);
  }

  /**
   * Plans the pass and carries it out. The pods seen going, failed pods (and pods that completed
   * although they should run forever) are noted as lost first, so that their replacements are
   * recorded as reschedules; what is remembered of pods the cache no longer holds is forgotten.
   */
  private async manageReplicas(
    key: string,
    rs: Readonly<ReplicaSet>,
    active: readonly Readonly<Pod>[],
    finished: readonly Readonly<Pod>[],
    now: number,
  ): Promise<ManageError | undefined> {
    this.lost.notice(key, finished, this.inCache, now);
    this.deletingFinished.prune(this.inCache);
    const plan = planReplicaSet({
      rs,
      active,
      finished,
      deletingFinished: this.deletingFinished,
      losses: this.lost.pending(key, now),
      burstReplicas: this.burstReplicas,
      now,
    });
    this.deleteFinished(rs, plan.finished);
    if (plan.creations.length === 0) this.lost.clear(key);
    for (const pod of plan.deletions) this.lost.deleting(key, pod);
    const outcome = await carryOut(plan, {
      expectations: this.expectations,
      key,
      create: (replacement) => this.podControl.create(rs, podFromTemplate(rs, replacement.annotations)),
      delete: (pod) => this.podControl.delete(rs, pod),
    });
    this.lost.replaced(
      key,
      outcome.created.flatMap(({ item }) => (item.lost ? [item.lost] : [])),
    );
    this.operations.rescheduled(rs, outcome.created);
    const [error] = outcome.errors;
    if (error === undefined) return undefined;
    return { reason: plan.creations.length > 0 ? 'FailedCreate' : 'FailedDelete', message: error instanceof Error ? error.message : String(error) };
  }

  /** Finished pods are deleted in the background: they count towards no replica, so nothing waits for them. */
  private deleteFinished(rs: Readonly<ReplicaSet>, finished: readonly Readonly<Pod>[]): void {
    for (const pod of finished) {
      this.deletingFinished.add(pod);
      void this.podControl.delete(rs, pod).catch((error: unknown) => {
        if (isNotFound(error)) return; // gone already: a later pass forgets it
        this.deletingFinished.delete(pod.metadata.uid ?? '');
        this.logger.warn('could not delete a finished pod', { pod: pod.metadata.name, error });
      });
    }
  }
}
