// One pass over one Deployment: finding (or creating) its new ReplicaSet, resizing sets, cleaning
// up old ones and writing status. The rollout strategies (rolling.ts, recreate.ts) are written
// on top of these steps. The Deployment object is carried along as writes return it.
import { isAlreadyExists, isNotFound, resources, type ApiClient, type EventRecorder, type Informer } from '../../client/index.js';
import type { Condition, ReplicaSet } from '../replicaset/types.js';
import { isOwnNewReplicaSet, planNewReplicaSet } from './new-replicaset.js';
import { desiredReplicas, maxSurge, specReplicas } from './replica-math.js';
import { byRevision, setReplicasAnnotations, splitNewAndOld } from './revisions.js';
import { planScale, type ScaleStep } from './scale-plan.js';
import {
  calculateStatus,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  getCondition,
  hasProgressDeadline,
  newCondition,
  removeCondition,
  setCondition,
  statusEqual,
} from './status.js';
import { PROGRESSING, reasons, REPLICA_FAILURE, REVISION_ANNOTATION, type Deployment, type DeploymentStatus } from './types.js';
import type { Pod } from '../../api/core/index.js';

export interface SyncDeps {
  api: ApiClient;
  events: EventRecorder;
  replicaSets: Informer<ReplicaSet>;
  pods: Informer<Pod>;
  podsIndex: string;
}

export class DeploymentSync {
  /** this.d.status holds changes not yet written. */
  private statusStaged = false;

  constructor(
    private readonly deps: SyncDeps,
    public d: Readonly<Deployment>,
    readonly rsList: readonly Readonly<ReplicaSet>[],
    readonly now: number,
  ) {}

  private get name(): string {
    return this.d.metadata.name ?? '';
  }

  private rsClient(namespace = this.d.metadata.namespace) {
    return this.deps.api.resource<ReplicaSet>(resources.replicasets, namespace);
  }

  podsOf(rs: Readonly<ReplicaSet>): Readonly<Pod>[] {
    return this.deps.pods.byIndex(this.deps.podsIndex, rs.metadata.uid ?? '');
  }

  // ---- writes ----

  async updateStatus(status: DeploymentStatus): Promise<void> {
    const body = { ...structuredClone(this.d), status } as Deployment;
    this.d = await this.deps.api.resource<Deployment>(resources.deployments, this.d.metadata.namespace).updateStatus(body);
    this.statusStaged = false;
  }

  /** Sets status for the write that ends the pass (every pass ends with one), saving a request. */
  private stageStatus(status: DeploymentStatus): void {
    this.d = { ...this.d, status };
    this.statusStaged = true;
  }

  private async writeStatusIfChanged(next: DeploymentStatus): Promise<void> {
    if (this.statusStaged || !statusEqual(this.d.status, next)) await this.updateStatus(next);
  }

  /** The revision annotation on the Deployment; conditional on the version read, so a newer spec is never mistaken for this one. */
  private async setDeploymentRevision(revision: string): Promise<void> {
    if (this.d.metadata.annotations?.[REVISION_ANNOTATION] === revision) return;
    const patched = await this.deps.api
      .resource<Deployment>(resources.deployments, this.d.metadata.namespace)
      .patch(this.name, 'merge', { metadata: { resourceVersion: this.d.metadata.resourceVersion, annotations: { [REVISION_ANNOTATION]: revision } } });
    this.d = this.statusStaged ? { ...patched, status: this.d.status } : patched;
  }

  /**
   * Resizes the set (and records desired/max replicas on it); an event when the size changed.
   * The 'update' Transaction of a rollout step is read from this write by deployment-transactions.ts.
   */
  async scaleReplicaSet(rs: Readonly<ReplicaSet>, newScale: number): Promise<Readonly<ReplicaSet>> {
    const oldScale = specReplicas(rs);
    const copy = structuredClone(rs) as ReplicaSet;
    const annotationsChanged = setReplicasAnnotations(copy, desiredReplicas(this.d), desiredReplicas(this.d) + maxSurge(this.d));
    if (oldScale === newScale && !annotationsChanged) return rs;
    copy.spec.replicas = newScale;
    // The cached resourceVersion makes this a compare-and-swap: a stale cache means a conflict and a retry.
    const updated = await this.rsClient(rs.metadata.namespace).update(copy);
    if (oldScale !== newScale) {
      const direction = oldScale < newScale ? 'up' : 'down';
      void this.deps.events.record(
        this.d,
        'Normal',
        'ScalingReplicaSet',
        `Scaled ${direction} replica set ${rs.metadata.name} from ${oldScale} to ${newScale}`,
      );
    }
    return updated;
  }

  /** Resizes only when the size differs; true when it did. */
  async scaleAndRecord(rs: Readonly<ReplicaSet>, newScale: number): Promise<{ scaled: boolean; rs: Readonly<ReplicaSet> }> {
    if (specReplicas(rs) === newScale) return { scaled: false, rs };
    return { scaled: true, rs: await this.scaleReplicaSet(rs, newScale) };
  }

  // ---- the new set and revisions ----

  /** The new and old sets, syncing the revision; creates the new set when asked and missing. */
  async getAllReplicaSetsAndSyncRevision(create: boolean): Promise<{ newRS: Readonly<ReplicaSet> | undefined; oldRSs: Readonly<ReplicaSet>[] }> {
    const { newRS: existing, oldRSs } = splitNewAndOld(this.d, this.rsList);
    const newRS = await this.getNewReplicaSet(existing, oldRSs, create);
    return { newRS, oldRSs };
  }

  private async getNewReplicaSet(
    existing: Readonly<ReplicaSet> | undefined,
    oldRSs: readonly Readonly<ReplicaSet>[],
    create: boolean,
  ): Promise<Readonly<ReplicaSet> | undefined> {
    const plan = planNewReplicaSet(this.d, existing, oldRSs, create);
    switch (plan.action) {
      case 'none':
        return undefined;
      case 'update':
        return this.rsClient().update(plan.updated);
      case 'use':
        await this.setDeploymentRevision(plan.revision);
        if (plan.found) this.stageProgressing('True', reasons.foundNewRS, `Found new replica set "${plan.rs.metadata.name}"`);
        return plan.rs;
      case 'create':
        return this.createNewReplicaSet(plan.rs, plan.revision);
    }
  }

  private async createNewReplicaSet(rs: ReplicaSet, revision: string): Promise<Readonly<ReplicaSet>> {
    const replicas = specReplicas(rs);
    let created: Readonly<ReplicaSet>;
    let alreadyExisted = false;
    try {
      created = await this.rsClient().create(rs);
    } catch (error) {
      if (!isAlreadyExists(error)) {
        await this.reportCreateFailure(rs, error);
        throw error;
      }
      created = await this.existingOrCollision(rs, error);
      alreadyExisted = true;
    }
    if (!alreadyExisted && replicas > 0) {
      void this.deps.events.record(this.d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} from 0 to ${replicas}`);
    }
    await this.setDeploymentRevision(revision);
    if (!alreadyExisted && hasProgressDeadline(this.d))
      this.stageProgressing('True', reasons.newRSCreated, `Created new replica set "${created.metadata.name}"`);
    return created;
  }

  /** Sets the Progressing condition for the status write that ends the pass. */
  private stageProgressing(value: Condition['status'], reason: string, message: string): void {
    const status = structuredClone(this.d.status ?? {}) as DeploymentStatus;
    setCondition(status, newCondition(PROGRESSING, value, reason, message, this.now));
    this.stageStatus(status);
  }

  /**
   * The name is taken: by our own set (a cache that has not caught up) we use it; by anything
   * else it is a hash collision, and the next attempt hashes with a higher collisionCount.
   */
  private async existingOrCollision(rs: ReplicaSet, error: unknown): Promise<Readonly<ReplicaSet>> {
    const name = rs.metadata.name ?? '';
    const found =
      this.deps.replicaSets.getByName(rs.metadata.namespace, name) ??
      (await this.rsClient()
        .get(name)
        .catch(() => undefined));
    if (isOwnNewReplicaSet(this.d, found)) return found;
    const status = structuredClone(this.d.status ?? {}) as DeploymentStatus;
    status.collisionCount = (status.collisionCount ?? 0) + 1;
    await this.updateStatus(status);
    throw error;
  }

  private async reportCreateFailure(rs: ReplicaSet, error: unknown): Promise<void> {
    const message = `Failed to create new replica set "${rs.metadata.name}": ${error instanceof Error ? error.message : String(error)}`;
    void this.deps.events.record(this.d, 'Warning', reasons.failedRSCreate, message);
    if (!hasProgressDeadline(this.d)) return;
    const status = structuredClone(this.d.status ?? {}) as DeploymentStatus;
    setCondition(status, newCondition(PROGRESSING, 'False', reasons.failedRSCreate, message, this.now));
    await this.updateStatus(status).catch(() => undefined);
  }

  // ---- scaling (a size change, or a paused Deployment) ----

  /** Scaling without a rollout: paused Deployments and size changes. */
  async sync(): Promise<DeploymentStatus> {
    const { newRS, oldRSs } = await this.getAllReplicaSetsAndSyncRevision(false);
    const scaled = await this.scale(newRS, oldRSs);
    if (this.d.spec.paused) await this.cleanupDeployment(scaled.oldRSs);
    return this.syncDeploymentStatus([...scaled.oldRSs, ...(scaled.newRS ? [scaled.newRS] : [])], scaled.newRS);
  }

  async scale(
    newRS: Readonly<ReplicaSet> | undefined,
    oldRSs: Readonly<ReplicaSet>[],
  ): Promise<{ newRS: Readonly<ReplicaSet> | undefined; oldRSs: Readonly<ReplicaSet>[] }> {
    const written = await this.resize(planScale(this.d, newRS, oldRSs));
    const latest = (rs: Readonly<ReplicaSet>) => written.get(rs.metadata.uid ?? '') ?? rs;
    return { newRS: newRS && latest(newRS), oldRSs: oldRSs.map(latest) };
  }

  /**
   * Carries out resizes in order, each on the set as the previous write of it returned it (its
   * resourceVersion makes the write a compare-and-swap). Returns the sets written, by uid.
   */
  async resize(steps: readonly ScaleStep[]): Promise<Map<string, Readonly<ReplicaSet>>> {
    const latest = new Map<string, Readonly<ReplicaSet>>();
    for (const { rs, to } of steps) {
      const uid = rs.metadata.uid ?? '';
      latest.set(uid, await this.scaleReplicaSet(latest.get(uid) ?? rs, to));
    }
    return latest;
  }

  // ---- clean-up ----

  /** Deletes the oldest empty sets beyond revisionHistoryLimit. */
  async cleanupDeployment(oldRSs: readonly Readonly<ReplicaSet>[]): Promise<void> {
    const limit = this.d.spec.revisionHistoryLimit;
    if (limit === undefined) return;
    const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp).sort(byRevision);
    const excess = cleanable.length - limit;
    for (let i = 0; i < excess; i++) {
      const rs = cleanable[i]!;
      if ((rs.status?.replicas ?? 0) !== 0 || specReplicas(rs) !== 0 || (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) continue;
      try {
        await this.rsClient(rs.metadata.namespace).delete(rs.metadata.name ?? '', { preconditions: { uid: rs.metadata.uid ?? '' } });
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
  }

  // ---- status ----

  async syncDeploymentStatus(allRSs: readonly Readonly<ReplicaSet>[], newRS: Readonly<ReplicaSet> | undefined): Promise<DeploymentStatus> {
    const next = calculateStatus(allRSs, newRS, this.d, this.now);
    await this.writeStatusIfChanged(next);
    return next;
  }

  async syncRolloutStatus(allRSs: readonly (Readonly<ReplicaSet> | undefined)[], newRS: Readonly<ReplicaSet> | undefined): Promise<DeploymentStatus> {
    const sets = allRSs.filter((rs): rs is Readonly<ReplicaSet> => rs !== undefined);
    const next = calculateStatus(sets, newRS, this.d, this.now);
    if (!hasProgressDeadline(this.d)) removeCondition(next, PROGRESSING);
    const current = getCondition(this.d.status, PROGRESSING);
    const complete = next.replicas === next.updatedReplicas && current?.reason === reasons.newRSAvailable;
    if (hasProgressDeadline(this.d) && !complete) {
      const subject = newRS ? `ReplicaSet "${newRS.metadata.name}"` : `Deployment "${this.name}"`;
      if (deploymentComplete(this.d, next)) {
        setCondition(next, newCondition(PROGRESSING, 'True', reasons.newRSAvailable, `${subject} has successfully progressed.`, this.now));
      } else if (deploymentProgressing(this.d, next)) {
        // Progress refreshes lastUpdateTime (the deadline counts from it), not the transition.
        const condition = newCondition(PROGRESSING, 'True', reasons.rsUpdated, `${subject} is progressing.`, this.now);
        if (current?.status === 'True' && current.lastTransitionTime) condition.lastTransitionTime = current.lastTransitionTime;
        removeCondition(next, PROGRESSING);
        setCondition(next, condition);
      } else if (deploymentTimedOut(this.d, next, this.now)) {
        setCondition(next, newCondition(PROGRESSING, 'False', reasons.timedOut, `${subject} has timed out progressing.`, this.now));
      }
    }
    const failure = replicaFailure(sets, newRS);
    if (failure) setCondition(next, failure);
    else removeCondition(next, REPLICA_FAILURE);
    await this.writeStatusIfChanged(next);
    return next;
  }

  /** Progressing=Unknown with DeploymentPaused / DeploymentResumed as the Deployment is paused and resumed. */
  async checkPausedConditions(): Promise<void> {
    if (!hasProgressDeadline(this.d)) return;
    const condition = getCondition(this.d.status, PROGRESSING);
    if (condition?.reason === reasons.timedOut) return;
    const pausedShown = condition?.reason === reasons.paused;
    if (this.d.spec.paused && !pausedShown) this.stageProgressing('Unknown', reasons.paused, 'Deployment is paused');
    else if (!this.d.spec.paused && pausedShown) this.stageProgressing('Unknown', reasons.resumed, 'Deployment is resumed');
  }
}

/** A ReplicaFailure of the new set first, else of any set, as a Deployment condition. */
function replicaFailure(sets: readonly Readonly<ReplicaSet>[], newRS: Readonly<ReplicaSet> | undefined) {
  const ofSet = (rs: Readonly<ReplicaSet> | undefined) => rs?.status?.conditions?.find((c) => c.type === REPLICA_FAILURE);
  const found = ofSet(newRS) ?? sets.map(ofSet).find((c) => c !== undefined);
  if (!found) return undefined;
  const at = found.lastTransitionTime;
  return {
    type: REPLICA_FAILURE,
    status: found.status,
    reason: found.reason ?? '',
    message: found.message ?? '',
    ...(at ? { lastTransitionTime: at, lastUpdateTime: at } : {}),
  };
}
