// The ReplicaSet controller: keeps spec.replicas pods matching the selector, as Kubernetes'
// does. The same core keeps ReplicationControllers (replicated-kinds.ts). Reconciles read only the informers' caches; the API sees creates, deletes, adoption
// patches and status writes. Expectations keep a lagging cache from causing duplicates.
import type { KubeObject } from '../../api/meta.js';
import {
  Expectations, indexers, isNotFound, objectKey, resources, TerminalError, WorkQueue,
  type EventRecorder, type Informer, type Logger, type ReconcileResult, type RunningController,
} from '../../client/index.js';
import { runOwnedQueue, type Controller, type ControllerContext } from '../context.js';
import { claimObjects, orphansByNamespace, ORPHANS_BY_NAMESPACE } from './claim.js';
import { hostRetainSeconds, LostPods, retainAnnotations, type LostPod } from './lost-pods.js';
import { slowStartBatch } from '../slow-start.js';
import { PodControl, podFromTemplate, SLOW_START_INITIAL_BATCH } from './pod-control.js';
import { isPodActive, isPodFinished, podsToDelete } from './pod-state.js';
import { isPodReady, msUntilNextAvailable } from '../../api/core/pod-conditions.js';
import { calculateReplicaSetStatus, statusChanged, statusPatch, type ManageError } from './rs-status.js';
import { ReplicaSetOperations } from './rs-transactions.js';
import { REPLICA_SETS, type ReplicatedKind } from './replicated-kinds.js';
import { controllerRefOf, objectFromRef, type ReplicaSet } from './types.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { Pod } from '../../api/core/index.js';

export const CONTROLLER_UID_INDEX = 'controllerUid';
export const NAMESPACE_INDEX = 'namespace';

export interface ReplicaSetControllerOptions {
  /** Sets reconciled at once. Default 16. */
  workers?: number;
  /** Most pods created or deleted for one set in one pass (Kubernetes' burstReplicas). Default 500. */
  burstReplicas?: number;
}

export class ReplicaSetController implements Controller {
  readonly name: string;
  private readonly replicaSets: Informer<ReplicaSet>;
  private readonly pods: Informer<Pod>;
  private readonly queue = new WorkQueue<string>();
  private readonly expectations = new Expectations();
  private readonly lost = new LostPods();
  /** Uids of finished pods whose deletion is under way. */
  private readonly deletingFinished = new Set<string>();
  private readonly events: EventRecorder;
  private readonly podControl: PodControl;
  private readonly operations: ReplicaSetOperations;
  /** Stand-alone sets seen deleted, until their key is reconciled (their open transactions end). */
  private readonly deleted = new Map<string, Readonly<ReplicaSet>>();
  private readonly logger: Logger;
  private readonly workers: number;
  private readonly burstReplicas: number;
  private running: RunningController | undefined;

  /** `kind`: ReplicaSets by default; REPLICATION_CONTROLLERS runs the same core over ReplicationControllers. */
  constructor(private readonly ctx: ControllerContext, options: ReplicaSetControllerOptions = {}, private readonly kind: ReplicatedKind = REPLICA_SETS) {
    this.name = kind.controllerName;
    this.workers = options.workers ?? 16;
    this.burstReplicas = options.burstReplicas ?? 500;
    this.events = ctx.recorder(this.name);
    this.logger = ctx.logger(this.name);
    this.podControl = new PodControl(ctx.api, this.events);
    this.operations = new ReplicaSetOperations(ctx.transactions);
    this.replicaSets = ctx.factory.informerFor<ReplicaSet>(kind.resource);
    this.replicaSets.addIndexer(NAMESPACE_INDEX, indexers.namespace);
    this.pods = ctx.factory.informerFor<Pod>(resources.pods);
    this.pods.addIndexer(CONTROLLER_UID_INDEX, indexers.controllerUid);
    this.pods.addIndexer(ORPHANS_BY_NAMESPACE, orphansByNamespace);
    this.replicaSets.addEventHandler({
      onAdd: (rs) => this.queue.add(objectKey(rs)),
      onUpdate: (_, rs) => this.queue.add(objectKey(rs)),
      onDelete: (rs) => {
        if (!controllerRefOf(rs) && this.ctx.shards.owns(objectKey(rs))) this.deleted.set(objectKey(rs), rs);
        this.queue.add(objectKey(rs));
      },
    });
    this.pods.addEventHandler({
      onAdd: (pod) => this.podAdded(pod),
      onUpdate: (old, pod) => this.podUpdated(old, pod),
      onDelete: (pod) => this.podDeleted(pod, true),
    });
  }

  start(): void {
    this.running = runOwnedQueue(this.ctx, {
      name: this.name,
      primary: this.replicaSets,
      queue: this.queue,
      workers: this.workers,
      reconcile: (key) => this.reconcile(key),
    });
  }

  async stop(): Promise<void> {
    await this.running?.stop();
  }

  // ---- event handlers: they only enqueue keys (and count what expectations wait for) ----

  /** The key of the set controlling the pod, when that set is in the cache. */
  private ownerKey(pod: Readonly<Pod>): string | undefined {
    const ref = controllerRefOf(pod);
    if (!ref || ref.kind !== this.kind.resource.kind) return undefined;
    const rs = this.replicaSets.getByName(pod.metadata.namespace, ref.name);
    return rs && rs.metadata.uid === ref.uid ? objectKey(rs) : undefined;
  }

  /** Sets that could adopt the orphan pod. */
  private enqueueMatching(pod: Readonly<Pod>): void {
    for (const rs of this.replicaSets.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')) {
      if (this.kind.selectorOf(rs).matches(pod.metadata.labels)) this.queue.add(objectKey(rs));
    }
  }

  private podAdded(pod: Readonly<Pod>): void {
    if (pod.metadata.deletionTimestamp) {
      // Seen first while terminating (a restart of this controller): not a loss we saw happen.
      this.podDeleted(pod, false);
      return;
    }
    const key = this.ownerKey(pod);
    if (key) {
      this.expectations.creationObserved(key);
      this.queue.add(key);
    } else if (!controllerRefOf(pod)) {
      this.enqueueMatching(pod);
    }
  }

  private podUpdated(old: Readonly<Pod>, pod: Readonly<Pod>): void {
    if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return; // resync: the sets resync themselves
    const labelsChanged = !jsonEqual(old.metadata.labels ?? {}, pod.metadata.labels ?? {});
    if (pod.metadata.deletionTimestamp) {
      this.podDeleted(pod, false, !old.metadata.deletionTimestamp);
      if (labelsChanged) this.podDeleted(old, false, false);
      return;
    }
    const ref = controllerRefOf(pod);
    const oldRef = controllerRefOf(old);
    const refChanged = ref?.uid !== oldRef?.uid;
    if (refChanged && oldRef) {
      const oldKey = this.ownerKey(old);
      if (oldKey) this.queue.add(oldKey);
    }
    if (ref) {
      const key = this.ownerKey(pod);
      if (!key) return;
      this.queue.add(key);
      // A pod that just became ready becomes available minReadySeconds later: look again then.
      const rs = this.replicaSets.get(key);
      const minReady = rs?.spec.minReadySeconds ?? 0;
      if (minReady > 0 && !isPodReady(old) && isPodReady(pod)) this.queue.addAfter(key, minReady * 1000 + 50);
      return;
    }
    if (labelsChanged || refChanged) this.enqueueMatching(pod);
  }

  /** A pod is terminating (`gone` false) or deleted (`gone` true). */
  private podDeleted(pod: Readonly<Pod>, gone: boolean, sawTransition = gone): void {
    const key = this.ownerKey(pod);
    if (key) {
      this.expectations.deletionObserved(key, objectKey(pod));
      const rs = this.replicaSets.get(key);
      if (sawTransition && rs && !rs.metadata.deletionTimestamp) this.lost.observe(key, pod, 'deleted');
      this.queue.add(key);
    }
    if (gone) {
      this.lost.gone(pod.metadata.uid);
      this.deletingFinished.delete(pod.metadata.uid ?? '');
    }
  }

  // ---- reconcile ----

  async reconcile(key: string, now = Date.now()): Promise<ReconcileResult | void> {
    const rs = this.replicaSets.get(key);
    const gone = this.deleted.get(key);
    if (gone && gone.metadata.uid !== rs?.metadata.uid) {
      this.deleted.delete(key);
      this.operations.abandon(gone);
    }
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
        await this.ctx.api.resource(this.kind.resource, rs.metadata.namespace).patch(rs.metadata.name ?? '', 'merge', statusPatch(status), { subresource: 'status' });
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
    const owned = this.pods.byIndex(CONTROLLER_UID_INDEX, rs.metadata.uid ?? '');
    const orphans = this.pods.byIndex(ORPHANS_BY_NAMESPACE, rs.metadata.namespace ?? '');
    const selector = this.kind.selectorOf(rs);
    // The common case — no orphans, every owned pod still matching — costs no request.
    if (orphans.length === 0 && owned.every((pod) => selector.matches(pod.metadata.labels))) return Promise.resolve(owned);
    return claimObjects<Pod>({
      api: this.ctx.api,
      resource: resources.pods,
      owner: rs,
      selector,
      owned,
      orphans,
      canAdopt: async () => {
        const fresh = await this.ctx.api.resource(this.kind.resource, rs.metadata.namespace).get(rs.metadata.name ?? '').catch(() => undefined);
        return fresh !== undefined && fresh.metadata.uid === rs.metadata.uid && !fresh.metadata.deletionTimestamp;
      },
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
    const { succeeded, errors: [error] } = await slowStartBatch(indexes, SLOW_START_INITIAL_BATCH, async (index) => {
      const lost = losses[index];
      const retain = lost && retainSeconds !== undefined ? retainAnnotations(lost, retainSeconds, now) : undefined;
      const created = await this.podControl.create(rs, podFromTemplate(rs, retain));
      if (!lost) return;
      replaced.add(lost);
      this.recordReschedule(rs, lost, created, retain !== undefined);
    });
    this.lost.putBack(key, losses.filter((lost) => !replaced.has(lost)));
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
