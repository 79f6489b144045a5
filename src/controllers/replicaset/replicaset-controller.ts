// The ReplicaSet controller: keeps spec.replicas pods matching the selector, as Kubernetes'
// does. The same core keeps ReplicationControllers (replicated-kinds.ts). Reconciles read only the informers' caches; the API sees creates, deletes, adoption
// patches and status writes. Expectations keep a lagging cache from causing duplicates.
import type { KubeObject } from '../../api/meta.js';
import {
  Expectations,
  isNotFound,
  objectKey,
  resources,
  TerminalError,
  type EventRecorder,
  type Informer,
  type Logger,
  type ReconcileResult,
} from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { claimFromCache } from '../shape/claim.js';
import { WorkloadController, type Owner } from '../shape/workload-controller.js';
import { hostRetainSeconds, LostPods, retainAnnotations, type LostPod } from './lost-pods.js';
import { slowStartBatch } from '../slow-start.js';
import { PodControl, podFromTemplate, SLOW_START_INITIAL_BATCH } from './pod-control.js';
import { isPodActive, isPodFinished, podsToDelete } from './pod-state.js';
import { isPodReady, msUntilNextAvailable } from '../../api/core/pod-conditions.js';
import { calculateReplicaSetStatus, statusChanged, statusPatch, type ManageError } from './rs-status.js';
import { ReplicaSetOperations } from './rs-transactions.js';
import { REPLICA_SETS, type ReplicatedKind } from './replicated-kinds.js';
import { controllerRefOf, objectFromRef, type ReplicaSet } from './types.js';
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
  /** Uids of finished pods whose deletion is under way. */
  private readonly deletingFinished = new Set<string>();
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
      keepDeleted: true, // its open transactions end when reconcile sees it gone
    });
    this.burstReplicas = options.burstReplicas ?? 500;
    this.events = ctx.recorder(this.name);
    this.logger = ctx.logger(this.name);
    this.podControl = new PodControl(ctx.api, this.events);
    this.operations = new ReplicaSetOperations(ctx.transactions);
    this.pods = this.owns<Pod>(resources.pods, {
      adoptableBy: (rs, pod) => this.kind.selectorOf(rs).matches(pod.metadata.labels),
      expectations: { store: this.expectations, by: 'key' },
      updated: (old, pod, owner) => this.podUpdated(old, pod, owner),
      deleted: (pod, owner) => this.podDeleted(pod, owner),
    });
  }

  // ---- the handlers of its own: lost pods (host retain, reschedule transactions) and minReadySeconds ----

  private podUpdated(old: Readonly<Pod>, pod: Readonly<Pod>, owner: Owner<ReplicaSet> | undefined): void {
    const rs = owner?.object;
    if (!rs) return;
    if (pod.metadata.deletionTimestamp) {
      // Deleted by someone else (ours are noted as deleting): a loss, replaced as a reschedule.
      if (!old.metadata.deletionTimestamp && !rs.metadata.deletionTimestamp) this.lost.observe(owner.key, pod, 'deleted');
      return;
    }
    // A pod that just became ready becomes available minReadySeconds later: look again then.
    const minReady = rs.spec.minReadySeconds ?? 0;
    if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.queue.addAfter(owner.key, minReady * 1000 + 50);
  }

  private podDeleted(pod: Readonly<Pod>, owner: Owner<ReplicaSet> | undefined): void {
    const rs = owner?.object;
    if (rs && !rs.metadata.deletionTimestamp) this.lost.observe(owner.key, pod, 'deleted');
    this.lost.gone(pod.metadata.uid);
    this.deletingFinished.delete(pod.metadata.uid ?? '');
  }

  // ---- reconcile ----

  async reconcile(key: string, now = Date.now()): Promise<ReconcileResult | void> {
    const rs = this.primary.get(key);
    const gone = this.takeDeleted(key, rs);
    // Only a stand-alone set records transactions of its own.
    if (gone && !controllerRefOf(gone)) this.operations.abandon(gone);
    if (!rs) {
      this.expectations.delete(key);
      this.lost.clear(key);
      return;
    }
    if (this.kind.selectorOf(rs).matchesNothing()) throw new TerminalError(`${key}: the selector cannot be parsed`);
    const needsSync = this.expectations.satisfied(key);
    const claimed = await this.claimPods(rs);
    const active = claimed.filter(isPodActive);
    const finished = claimed.filter(isPodFinished);
    let manageError: ManageError | undefined;
    if (needsSync && !rs.metadata.deletionTimestamp) {
      this.replaceFinished(key, rs, finished, now);
      manageError = await this.manageReplicas(key, rs, active, now);
    }
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
    this.operations.track(rs, status);
    if (manageError) throw new Error(`${key}: ${manageError.message}`);
    const wait = msUntilNextAvailable(active, rs.spec.minReadySeconds ?? 0, now);
    return wait === undefined ? undefined : { requeueAfterMs: wait + 50 };
  }

  private claimPods(rs: Readonly<ReplicaSet>): Promise<Readonly<Pod>[]> {
    return claimFromCache<Pod>({
      api: this.ctx.api,
      ownerResource: this.kind.resource,
      owner: rs,
      selector: this.kind.selectorOf(rs),
      resource: resources.pods,
      informer: this.pods,
    });
  }

  /**
   * Failed pods (and pods that completed although they should run forever) are deleted, and
   * noted as lost so that their replacements are recorded as reschedules.
   */
  private replaceFinished(key: string, rs: Readonly<ReplicaSet>, finished: readonly Readonly<Pod>[], now: number): void {
    for (const pod of finished) {
      const uid = pod.metadata.uid ?? '';
      this.lost.observe(key, pod, 'failed', now);
      if (this.deletingFinished.has(uid)) continue;
      this.deletingFinished.add(uid);
      void this.podControl.delete(rs, pod).catch((error: unknown) => {
        this.deletingFinished.delete(uid);
        this.logger.warn('could not delete a finished pod', { pod: pod.metadata.name, error });
      });
    }
  }

  private async manageReplicas(key: string, rs: Readonly<ReplicaSet>, active: readonly Readonly<Pod>[], now: number): Promise<ManageError | undefined> {
    const desired = rs.spec.replicas ?? 1;
    const diff = active.length - desired;
    if (diff < 0) return this.createPods(key, rs, Math.min(-diff, this.burstReplicas), now);
    this.lost.clear(key);
    if (diff > 0) return this.deletePods(key, rs, active, Math.min(diff, this.burstReplicas));
    return undefined;
  }

  private async createPods(key: string, rs: Readonly<ReplicaSet>, count: number, now: number): Promise<ManageError | undefined> {
    this.expectations.expectCreations(key, count);
    const losses = this.lost.take(key, count, now);
    const retainSeconds = hostRetainSeconds(rs.spec.template);
    const replaced = new Set<LostPod>();
    const indexes = Array.from({ length: count }, (_, index) => index);
    const {
      succeeded,
      errors: [error],
    } = await slowStartBatch(indexes, SLOW_START_INITIAL_BATCH, async (index) => {
      const lost = losses[index];
      const retain = lost && retainSeconds !== undefined ? retainAnnotations(lost, retainSeconds, now) : undefined;
      const created = await this.podControl.create(rs, podFromTemplate(rs, retain));
      if (!lost) return;
      replaced.add(lost);
      this.recordReschedule(rs, lost, created, retain !== undefined);
    });
    this.lost.putBack(
      key,
      losses.filter((lost) => !replaced.has(lost)),
    );
    // Pods never created (failed, or skipped after a failed batch) will never be observed.
    for (let i = succeeded; i < count; i++) this.expectations.creationObserved(key);
    if (error === undefined) return undefined;
    return { reason: 'FailedCreate', message: error instanceof Error ? error.message : String(error) };
  }

  private async deletePods(key: string, rs: Readonly<ReplicaSet>, active: readonly Readonly<Pod>[], count: number): Promise<ManageError | undefined> {
    const victims = podsToDelete(active, count);
    this.expectations.expectDeletions(key, victims.map(objectKey));
    for (const pod of victims) this.lost.deleting(pod.metadata.uid ?? '');
    const results = await Promise.allSettled(victims.map((pod) => this.podControl.delete(rs, pod)));
    let failure: unknown;
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') return;
      failure ??= result.reason;
      this.expectations.deletionObserved(key, objectKey(victims[i]!));
    });
    if (failure === undefined) return undefined;
    return { reason: 'FailedDelete', message: failure instanceof Error ? failure.message : String(failure) };
  }

  /** The workload a reschedule is recorded on: the controlling Deployment, else the set. */
  private workloadOf(rs: Readonly<ReplicaSet>): KubeObject {
    const ref = controllerRefOf(rs);
    return ref && ref.kind === 'Deployment' ? objectFromRef(ref, rs.metadata.namespace) : rs;
  }

  private recordReschedule(rs: Readonly<ReplicaSet>, lost: LostPod, replacement: Readonly<Pod>, retained: boolean): void {
    const what = lost.cause === 'failed' ? `pod ${lost.name} failed on node ${lost.node}` : `pod ${lost.name} on node ${lost.node} was deleted`;
    const message = `replaced by pod ${replacement.metadata.name}` + (retained ? `, held for node ${lost.node}` : '');
    void this.ctx.transactions.once(this.workloadOf(rs), 'reschedule', { reason: what, total: 1, done: 1, message }, 'Succeeded', message);
  }
}
