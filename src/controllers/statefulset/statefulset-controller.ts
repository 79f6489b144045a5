// The StatefulSet controller (`statefulset-controller`), after kube-controller-manager's stateful
// set control. A pass over one set (1) records its template as a ControllerRevision (the update
// revision; the current one is named in its status), (2) unless the cache still owes it events
// of its own creates and deletes, carries out what plan.ts decides: create the next ordinal's
// claims and pod, delete a failed pod (recreated under the same name), scale down from the
// highest ordinal, roll the update from the highest ordinal down to the partition; (3) writes
// the status `kubectl rollout status` reads; (4) records its Transactions and prunes history.
import {
  Expectations, indexers, isAlreadyExists, isNotFound, objectKey, resources, TerminalError, WorkQueue,
  type EventRecorder, type Informer, type ReconcileResult, type RunningController,
} from '../../client/index.js';
import { runOwnedQueue, type Controller, type ControllerContext } from '../context.js';
import { ControllerHistory } from '../history/controller-history.js';
import { templateOf, type ControllerRevision } from '../history/revisions.js';
import { claimObjects, orphansByNamespace, ORPHANS_BY_NAMESPACE } from '../replicaset/claim.js';
import { msUntilNextAvailable } from '../../api/core/pod-conditions.js';
import { labelSelectorOf } from '../replicaset/replicated-kinds.js';
import { controllerRefOf } from '../replicaset/types.js';
import { StatefulClaims } from './claims.js';
import { isMemberOf, ordinalOf, startOrdinal } from './ordinals.js';
import { planStatefulSet, type Action } from './plan.js';
import { computeStatus, statusChanged } from './status.js';
import { controllerRef, newStatefulPod } from './stateful-pod.js';
import { StatefulSetOperations } from './sts-transactions.js';
import { REVISION_HASH_LABEL, REVISION_LABEL, type StatefulSet, type StatefulSetStatus } from './types.js';
import type { Pod, PodTemplateSpec } from '../../api/core/index.js';

const CONTROLLER_UID = 'controllerUid';
const NAMESPACE = 'namespace';

export class StatefulSetController implements Controller {
  readonly name = 'statefulset-controller';
  private readonly sets: Informer<StatefulSet>;
  private readonly pods: Informer<Pod>;
  private readonly queue = new WorkQueue<string>();
  private readonly expectations = new Expectations();
  private readonly events: EventRecorder;
  private readonly history: ControllerHistory;
  private readonly claims: StatefulClaims;
  private readonly operations: StatefulSetOperations;
  private running: RunningController | undefined;

  constructor(private readonly ctx: ControllerContext, private readonly options: { workers?: number } = {}) {
    this.events = ctx.recorder(this.name);
    this.history = new ControllerHistory(ctx);
    this.claims = new StatefulClaims(ctx.api);
    this.operations = new StatefulSetOperations(ctx.transactions);
    this.sets = ctx.factory.informerFor<StatefulSet>(resources.statefulsets);
    this.sets.addIndexer(NAMESPACE, indexers.namespace);
    this.pods = ctx.factory.informerFor<Pod>(resources.pods);
    this.pods.addIndexer(CONTROLLER_UID, indexers.controllerUid);
    this.pods.addIndexer(ORPHANS_BY_NAMESPACE, orphansByNamespace);
    this.watch();
  }

  start(): void {
    this.running = runOwnedQueue(this.ctx, {
      name: this.name, primary: this.sets, queue: this.queue, workers: this.options.workers ?? 4, reconcile: (key) => this.reconcile(key),
    });
  }

  async stop(): Promise<void> {
    await this.running?.stop();
  }

  private watch(): void {
    this.sets.addEventHandler({
      onAdd: (set) => this.queue.add(objectKey(set)),
      onUpdate: (_old, set) => this.queue.add(objectKey(set)),
      onDelete: (set) => {
        this.expectations.delete(objectKey(set));
        this.operations.forget(set.metadata.uid ?? '');
      },
    });
    this.pods.addEventHandler({
      onAdd: (pod) => {
        const key = this.ownerKey(pod);
        if (key && pod.metadata.deletionTimestamp) this.expectations.deletionObserved(key, objectKey(pod));
        else if (key) this.expectations.creationObserved(key);
        if (key) this.queue.add(key);
        else if (!controllerRefOf(pod)) this.enqueueMatching(pod);
      },
      onUpdate: (old, pod) => {
        const oldKey = this.ownerKey(old);
        const key = this.ownerKey(pod);
        if (oldKey && oldKey !== key) this.queue.add(oldKey);
        if (!key) {
          if (!controllerRefOf(pod)) this.enqueueMatching(pod);
          return;
        }
        if (pod.metadata.deletionTimestamp && !old.metadata.deletionTimestamp) this.expectations.deletionObserved(key, objectKey(pod));
        this.queue.add(key);
        // A pod that just became ready becomes available minReadySeconds later: look again then.
        const minReady = this.sets.get(key)?.spec.minReadySeconds ?? 0;
        if (minReady > 0) this.queue.addAfter(key, minReady * 1000 + 50);
      },
      onDelete: (pod) => {
        const key = this.ownerKey(pod);
        if (!key) return;
        this.expectations.deletionObserved(key, objectKey(pod));
        this.queue.add(key);
      },
    });
  }

  private ownerKey(pod: Readonly<Pod>): string | undefined {
    const ref = controllerRefOf(pod);
    if (!ref || ref.kind !== 'StatefulSet') return undefined;
    const set = this.sets.getByName(pod.metadata.namespace, ref.name);
    return set && set.metadata.uid === ref.uid ? objectKey(set) : undefined;
  }

  private enqueueMatching(pod: Readonly<Pod>): void {
    for (const set of this.sets.byIndex(NAMESPACE, pod.metadata.namespace ?? '')) {
      if (isMemberOf(set, pod) && labelSelectorOf(set).matches(pod.metadata.labels)) this.queue.add(objectKey(set));
    }
  }

  async reconcile(key: string, now = Date.now()): Promise<ReconcileResult | void> {
    const set = this.sets.get(key);
    if (!set) {
      this.expectations.delete(key);
      return;
    }
    const selector = labelSelectorOf(set);
    if (selector.matchesNothing()) throw new TerminalError(`${key}: the selector cannot be parsed`);
    const collisionCount = set.status?.collisionCount ?? 0;
    const history = await this.history.sync({
      owner: set, ownerResource: resources.statefulsets, controllerRef: controllerRef(set), selector,
      template: set.spec.template, collisionCount, hashLabel: REVISION_HASH_LABEL,
    });
    if (history.collision) {
      await this.writeStatus(set, { ...statusOf(set), collisionCount: collisionCount + 1 });
      return { requeueAfterMs: 10 };
    }
    const updateRevision = history.current;
    const currentRevision = history.revisions.find((r) => r.metadata.name === set.status?.currentRevision) ?? updateRevision;
    const pods = await this.claimPods(set);
    let failure: unknown;
    // A set being deleted is left to the garbage collector, as in Kubernetes: status only.
    if (!set.metadata.deletionTimestamp && this.expectations.satisfied(key)) {
      const strategy = set.spec.updateStrategy;
      const actions = planStatefulSet({
        start: startOrdinal(set), replicas: set.spec.replicas ?? 1, parallel: set.spec.podManagementPolicy === 'Parallel',
        onDelete: strategy?.type === 'OnDelete', partition: strategy?.rollingUpdate?.partition ?? 0,
        pods, updateRevision: updateRevision.metadata.name ?? '', minReadySeconds: set.spec.minReadySeconds ?? 0, now,
      });
      failure = await this.carryOut(key, set, actions, { current: currentRevision, update: updateRevision });
    }
    const status = computeStatus({
      set, pods, currentRevision: currentRevision.metadata.name ?? '', updateRevision: updateRevision.metadata.name ?? '', collisionCount, now,
    });
    if (statusChanged(set.status, status)) await this.writeStatus(set, status);
    this.operations.track(set, status);
    const inUse = new Set([status.currentRevision ?? '', status.updateRevision ?? '', ...pods.map((p) => p.metadata.labels?.[REVISION_LABEL] ?? '')]);
    await this.history.prune(set, history.revisions, set.spec.revisionHistoryLimit ?? 10, inUse);
    if (failure !== undefined) throw failure;
    const wait = msUntilNextAvailable(pods, set.spec.minReadySeconds ?? 0, now);
    return wait === undefined ? undefined : { requeueAfterMs: wait + 50 };
  }

  /** The set's pods: owned members, and orphan members its selector matches (adopted). */
  private claimPods(set: Readonly<StatefulSet>): Promise<Readonly<Pod>[]> {
    const owned = this.pods.byIndex(CONTROLLER_UID, set.metadata.uid ?? '').filter((pod) => isMemberOf(set, pod));
    const orphans = this.pods.byIndex(ORPHANS_BY_NAMESPACE, set.metadata.namespace ?? '').filter((pod) => isMemberOf(set, pod));
    const selector = labelSelectorOf(set);
    if (orphans.length === 0 && owned.every((pod) => selector.matches(pod.metadata.labels))) return Promise.resolve(owned);
    return claimObjects<Pod>({
      api: this.ctx.api, resource: resources.pods, owner: set, selector, owned, orphans,
      canAdopt: async () => {
        const fresh = await this.ctx.api.resource(resources.statefulsets, set.metadata.namespace).get(set.metadata.name ?? '').catch(() => undefined);
        return fresh !== undefined && fresh.metadata.uid === set.metadata.uid && !fresh.metadata.deletionTimestamp;
      },
    });
  }

  /** Carries out a pass's actions; the first error, if any, is returned (the pass still writes status). */
  private async carryOut(key: string, set: Readonly<StatefulSet>, actions: readonly Action[], revisions: { current: Readonly<ControllerRevision>; update: Readonly<ControllerRevision> }): Promise<unknown> {
    const creates = actions.filter((a) => a.type === 'create');
    const deletes = actions.flatMap((a) => (a.type === 'delete' ? [a] : []));
    if (creates.length > 0) this.expectations.expectCreations(key, creates.length);
    if (deletes.length > 0) this.expectations.expectDeletions(key, deletes.map((d) => objectKey(d.pod)));
    const results = await Promise.allSettled(actions.map(async (action) => {
      if (action.type === 'create') {
        const revision = revisions[action.revision];
        const template = action.revision === 'update' ? set.spec.template : (templateOf(revision) as PodTemplateSpec | undefined);
        try {
          // A pod of that name already there (not yet in the cache, or not ours) brings no event for this create.
          if (!(await this.createPod(set, action.ordinal, template, revision.metadata.name ?? ''))) this.expectations.creationObserved(key);
        } catch (error) {
          this.expectations.creationObserved(key); // it will never be observed
          throw error;
        }
      } else {
        try {
          await this.deletePod(set, action.pod, action.reason === 'condemned');
        } catch (error) {
          this.expectations.deletionObserved(key, objectKey(action.pod));
          throw error;
        }
      }
    }));
    const failed = results.find((r) => r.status === 'rejected');
    return failed?.status === 'rejected' ? failed.reason : undefined;
  }

  /** False when a pod of that name exists already. */
  private async createPod(set: Readonly<StatefulSet>, ordinal: number, template: Readonly<PodTemplateSpec> | undefined, revisionName: string): Promise<boolean> {
    const pod = newStatefulPod(set, template, ordinal, revisionName);
    const name = pod.metadata.name!;
    try {
      await this.claims.ensure(set, ordinal);
      await this.ctx.api.resource<Pod>(resources.pods, set.metadata.namespace).create(pod);
      void this.events.record(set, 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} successful`);
      return true;
    } catch (error) {
      if (isAlreadyExists(error)) return false;
      void this.events.record(set, 'Warning', 'FailedCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${(error as Error).message}`);
      throw error;
    }
  }

  private async deletePod(set: Readonly<StatefulSet>, pod: Readonly<Pod>, condemned: boolean): Promise<void> {
    const name = pod.metadata.name!;
    try {
      if (condemned) await this.claims.condemned(set, pod, ordinalOf(pod)?.ordinal ?? -1);
      await this.ctx.api.resource(resources.pods, pod.metadata.namespace).delete(name, { preconditions: { uid: pod.metadata.uid ?? '' } });
      void this.events.record(set, 'Normal', 'SuccessfulDelete', `delete Pod ${name} in StatefulSet ${set.metadata.name} successful`);
    } catch (error) {
      if (isNotFound(error)) return;
      void this.events.record(set, 'Warning', 'FailedDelete', `delete Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${(error as Error).message}`);
      throw error;
    }
  }

  private async writeStatus(set: Readonly<StatefulSet>, status: StatefulSetStatus): Promise<void> {
    try {
      await this.ctx.api.resource(resources.statefulsets, set.metadata.namespace).patch(set.metadata.name ?? '', 'merge', { status }, { subresource: 'status' });
    } catch (error) {
      if (!isNotFound(error)) throw error; // deleted meanwhile: its delete event brings us back
    }
  }
}

function statusOf(set: Readonly<StatefulSet>): StatefulSetStatus {
  const s = set.status ?? {};
  return {
    ...s, replicas: s.replicas ?? 0, readyReplicas: s.readyReplicas ?? 0, currentReplicas: s.currentReplicas ?? 0,
    updatedReplicas: s.updatedReplicas ?? 0, availableReplicas: s.availableReplicas ?? 0,
  };
}
