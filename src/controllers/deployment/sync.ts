// One pass over one Deployment: finding (or creating) its new ReplicaSet, resizing sets, cleaning
// up old ones and writing status. The rollout strategies (rolling.ts, recreate.ts) are written
// on top of these steps. The Deployment object is carried along as writes return it.
import { isAlreadyExists, isNotFound, resources, type ApiClient, type EventRecorder, type Informer } from '../../client/index.js';
import type { ReplicaSet } from '../replicaset/types.js';
import { controllerRefOf, newControllerRef } from '../replicaset/types.js';
import { equalIgnoreHash, podTemplateHash } from './hash.js';
import type { DeploymentOperations } from './operations.js';
import { desiredReplicas, filterActive, isRollingUpdate, maxSurge, newReplicaSetReplicas, proportionalSizes, specReplicas } from './replica-math.js';
import { byRevision, maxRevision, revisionOf, setNewReplicaSetAnnotations, setReplicasAnnotations, splitNewAndOld } from './revisions.js';
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
import {
  DESIRED_REPLICAS_ANNOTATION,
  POD_TEMPLATE_HASH_LABEL,
  PROGRESSING,
  reasons,
  REPLICA_FAILURE,
  REVISION_ANNOTATION,
  type Deployment,
  type DeploymentStatus,
} from './types.js';
import type { Pod } from '../../api/core/index.js';

export interface SyncDeps {
  api: ApiClient;
  events: EventRecorder;
  operations: DeploymentOperations;
  replicaSets: Informer<ReplicaSet>;
  pods: Informer<Pod>;
  podsIndex: string;
}

/** What a rollout step reports about the set it resized, for the 'update' transaction. */
export type StepKind = 'new' | 'old';

export class DeploymentSync {
  /** The new set once found or created (for the transactions of this pass). */
  newRS: Readonly<ReplicaSet> | undefined;
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

  /** Resizes the set (and records desired/max replicas on it); an event when the size changed. */
  async scaleReplicaSet(rs: Readonly<ReplicaSet>, newScale: number, step?: StepKind): Promise<Readonly<ReplicaSet>> {
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
      if (step) {
        const which = step === 'new' ? 'new' : 'old';
        this.deps.operations.step(this.d, step === 'new' ? updated : this.newRS, `scale ${which} replica set ${rs.metadata.name} to ${newScale}`);
      }
    }
    return updated;
  }

  /** Resizes only when the size differs; true when it did. */
  async scaleAndRecord(rs: Readonly<ReplicaSet>, newScale: number, step?: StepKind): Promise<{ scaled: boolean; rs: Readonly<ReplicaSet> }> {
    if (specReplicas(rs) === newScale) return { scaled: false, rs };
    return { scaled: true, rs: await this.scaleReplicaSet(rs, newScale, step) };
  }

  // ---- the new set and revisions ----

  /** The new and old sets, syncing the revision; creates the new set when asked and missing. */
  async getAllReplicaSetsAndSyncRevision(create: boolean): Promise<{ newRS: Readonly<ReplicaSet> | undefined; oldRSs: Readonly<ReplicaSet>[] }> {
    const { newRS: existing, oldRSs } = splitNewAndOld(this.d, this.rsList);
    const newRS = await this.getNewReplicaSet(existing, oldRSs, create);
    this.newRS = newRS;
    return { newRS, oldRSs };
  }

  private async getNewReplicaSet(
    existing: Readonly<ReplicaSet> | undefined,
    oldRSs: readonly Readonly<ReplicaSet>[],
    create: boolean,
  ): Promise<Readonly<ReplicaSet> | undefined> {
    const newRevision = maxRevision(oldRSs) + 1;
    const desired = desiredReplicas(this.d);
    const max = desired + maxSurge(this.d);
    if (existing) {
      const copy = structuredClone(existing) as ReplicaSet;
      const annotationsChanged = setNewReplicaSetAnnotations(this.d, copy, newRevision, true, desired, max);
      const minReady = this.d.spec.minReadySeconds ?? 0;
      if (annotationsChanged || (copy.spec.minReadySeconds ?? 0) !== minReady) {
        copy.spec.minReadySeconds = minReady;
        return this.rsClient().update(copy);
      }
      await this.setDeploymentRevision(String(revisionOf(existing)));
      if (hasProgressDeadline(this.d) && !getCondition(this.d.status, PROGRESSING)) {
        const status = structuredClone(this.d.status ?? {}) as DeploymentStatus;
        setCondition(status, newCondition(PROGRESSING, 'True', reasons.foundNewRS, `Found new replica set "${existing.metadata.name}"`, this.now));
        this.stageStatus(status);
      }
      return existing;
    }
    if (!create) return undefined;
    return this.createNewReplicaSet(oldRSs, newRevision, desired, max);
  }

  private buildNewReplicaSet(): ReplicaSet {
    const hash = podTemplateHash(this.d.spec.template, this.d.status?.collisionCount);
    const template = structuredClone(this.d.spec.template);
    template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, [POD_TEMPLATE_HASH_LABEL]: hash } };
    const selector = structuredClone(this.d.spec.selector);
    selector.matchLabels = { ...selector.matchLabels, [POD_TEMPLATE_HASH_LABEL]: hash };
    return {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: `${this.name}-${hash}`,
        namespace: this.d.metadata.namespace ?? 'default',
        labels: { ...template.metadata.labels },
        ownerReferences: [newControllerRef(this.d)],
      },
      spec: { replicas: 0, minReadySeconds: this.d.spec.minReadySeconds ?? 0, selector, template },
    };
  }

  private async createNewReplicaSet(oldRSs: readonly Readonly<ReplicaSet>[], newRevision: number, desired: number, max: number): Promise<Readonly<ReplicaSet>> {
    const rs = this.buildNewReplicaSet();
    const replicas = newReplicaSetReplicas(this.d, [...oldRSs, rs], rs);
    rs.spec.replicas = replicas;
    setNewReplicaSetAnnotations(this.d, rs, newRevision, false, desired, max);
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
      if (filterActive(oldRSs).length > 0) this.deps.operations.step(this.d, created, `scale new replica set ${created.metadata.name} to ${replicas}`);
    }
    await this.setDeploymentRevision(String(newRevision));
    if (!alreadyExisted && hasProgressDeadline(this.d)) {
      const status = structuredClone(this.d.status ?? {}) as DeploymentStatus;
      setCondition(status, newCondition(PROGRESSING, 'True', reasons.newRSCreated, `Created new replica set "${created.metadata.name}"`, this.now));
      this.stageStatus(status);
    }
    return created;
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
    if (found && controllerRefOf(found)?.uid === this.d.metadata.uid && equalIgnoreHash(found.spec.template, this.d.spec.template)) return found;
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

  /** The size the active sets were last scaled for, when it differs from spec.replicas (a scaling event). */
  scalingEventFrom(): number | undefined {
    const { newRS, oldRSs } = splitNewAndOld(this.d, this.rsList);
    for (const rs of filterActive([...oldRSs, newRS])) {
      const annotated = Number(rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION]);
      if (rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION] !== undefined && Number.isInteger(annotated) && annotated !== desiredReplicas(this.d))
        return annotated;
    }
    return undefined;
  }

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
    const desired = desiredReplicas(this.d);
    const replace = (old: Readonly<ReplicaSet>, updated: Readonly<ReplicaSet>) => {
      if (old === newRS) newRS = updated;
      oldRSs = oldRSs.map((rs) => (rs === old ? updated : rs));
    };
    // One active set (or none): it simply takes the Deployment's size.
    const single = activeOrLatest(newRS, oldRSs);
    if (single) {
      // Even at the right size its replica annotations may be stale: that would look like a scaling event forever.
      replace(single, await this.scaleReplicaSet(single, desired));
      return { newRS, oldRSs };
    }
    // The new set is complete: the old ones go.
    if (newRS && isSaturated(this.d, newRS)) {
      for (const old of filterActive(oldRSs)) replace(old, (await this.scaleAndRecord(old, 0)).rs);
      return { newRS, oldRSs };
    }
    // Several active sets mid-rollout: spread the change in proportion to their sizes.
    if (isRollingUpdate(this.d)) {
      const active = filterActive([...oldRSs, newRS]);
      const sizes = proportionalSizes(this.d, active);
      for (const rs of active) replace(rs, await this.scaleReplicaSet(rs, sizes.get(rs) ?? specReplicas(rs)));
    }
    return { newRS, oldRSs };
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
    const status = structuredClone(this.d.status ?? {}) as DeploymentStatus;
    if (this.d.spec.paused && !pausedShown) {
      setCondition(status, newCondition(PROGRESSING, 'Unknown', reasons.paused, 'Deployment is paused', this.now));
    } else if (!this.d.spec.paused && pausedShown) {
      setCondition(status, newCondition(PROGRESSING, 'Unknown', reasons.resumed, 'Deployment is resumed', this.now));
    } else {
      return;
    }
    this.stageStatus(status);
  }
}

/** The only active set; the new set (or the newest old one) when none is active; nothing when several are. */
function activeOrLatest(newRS: Readonly<ReplicaSet> | undefined, oldRSs: readonly Readonly<ReplicaSet>[]): Readonly<ReplicaSet> | undefined {
  const active = filterActive([...oldRSs, newRS]);
  if (active.length === 1) return active[0];
  if (active.length > 1) return undefined;
  if (newRS) return newRS;
  return oldRSs.length > 0
    ? [...oldRSs].sort((a, b) => (Date.parse(b.metadata.creationTimestamp ?? '') || 0) - (Date.parse(a.metadata.creationTimestamp ?? '') || 0))[0]
    : undefined;
}

/** The new set has all the Deployment's replicas, scaled for its current size, all available. */
function isSaturated(d: Readonly<Deployment>, rs: Readonly<ReplicaSet>): boolean {
  const desired = desiredReplicas(d);
  return (
    specReplicas(rs) === desired &&
    rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION] === String(desired) &&
    (rs.status?.availableReplicas ?? 0) === desired
  );
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
