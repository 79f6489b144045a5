// The StatefulSet controller (`statefulset-controller`), after kube-controller-manager's stateful
// set control. A pass over one set (1) records its template as a ControllerRevision (the update
// revision; the current one is named in its status), (2) unless the cache still owes it events
// of its own creates and deletes, carries out what plan.ts decides: create the next ordinal's
// claims and pod, delete a failed pod (recreated under the same name), scale down from the
// highest ordinal, roll the update from the highest ordinal down to the partition; (3) writes
// the status `kubectl rollout status` reads; (4) prunes history. Its Transactions are observed
// from that written status (sts-transactions.ts).
import {
  Expectations,
  isAlreadyExists,
  isNotFound,
  resources,
  TerminalError,
  type EventRecorder,
  type Informer,
  type ReconcileResult,
} from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { ControllerHistory } from '../history/controller-history.js';
import { templateOf, type ControllerRevision } from '../history/revisions.js';
import { carryOut } from '../shape/pass.js';
import { WorkloadController } from '../shape/workload-controller.js';
import { msUntilNextAvailable } from '../../api/core/pod-conditions.js';
import { labelSelectorOf } from '../replicaset/replicated-kinds.js';
import { StatefulClaims } from './claims.js';
import { isMemberOf, ordinalOf, startOrdinal } from './ordinals.js';
import { planStatefulSet, type Action } from './plan.js';
import { computeStatus, statusChanged } from './status.js';
import { controllerRef, newStatefulPod } from './stateful-pod.js';
import { StatefulSetOperations } from './sts-transactions.js';
import { REVISION_HASH_LABEL, REVISION_LABEL, type StatefulSet, type StatefulSetStatus } from './types.js';
import type { Pod, PodTemplateSpec } from '../../api/core/index.js';

export class StatefulSetController extends WorkloadController<StatefulSet> {
  private readonly pods: Informer<Pod>;
  private readonly expectations = new Expectations();
  private readonly events: EventRecorder;
  private readonly history: ControllerHistory;
  private readonly claims: StatefulClaims;

  constructor(ctx: ControllerContext, options: { workers?: number } = {}) {
    super(ctx, { name: 'statefulset-controller', resource: resources.statefulsets, workers: options.workers ?? 4 });
    this.events = ctx.recorder(this.name);
    this.history = new ControllerHistory(ctx);
    this.claims = new StatefulClaims(ctx.api);
    new StatefulSetOperations(ctx.transactions).observe(this.primary, (key) => ctx.shards.owns(key));
    this.pods = this.owns<Pod>(resources.pods, {
      adoptableBy: (set, pod) => isMemberOf(set, pod) && labelSelectorOf(set).matches(pod.metadata.labels),
      expectations: { store: this.expectations, by: 'key' },
      updated: (_old, pod, owner) => {
        // A pod that just became ready becomes available minReadySeconds later: look again then.
        const minReady = owner?.object?.spec.minReadySeconds ?? 0;
        if (minReady > 0) this.queue.addAfter(owner!.key, minReady * 1000 + 50);
      },
    });
  }

  async reconcile(key: string, now = Date.now()): Promise<ReconcileResult | void> {
    const set = this.primary.get(key);
    if (!set) {
      this.expectations.delete(key);
      return;
    }
    const selector = labelSelectorOf(set);
    if (selector.matchesNothing()) throw new TerminalError(`${key}: the selector cannot be parsed`);
    const collisionCount = set.status?.collisionCount ?? 0;
    const history = await this.history.sync({
      owner: set,
      ownerResource: resources.statefulsets,
      controllerRef: controllerRef(set),
      selector,
      template: set.spec.template,
      collisionCount,
      hashLabel: REVISION_HASH_LABEL,
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
        start: startOrdinal(set),
        replicas: set.spec.replicas ?? 1,
        parallel: set.spec.podManagementPolicy === 'Parallel',
        onDelete: strategy?.type === 'OnDelete',
        partition: strategy?.rollingUpdate?.partition ?? 0,
        pods,
        updateRevision: updateRevision.metadata.name ?? '',
        minReadySeconds: set.spec.minReadySeconds ?? 0,
        now,
      });
      failure = await this.carryOut(key, set, actions, { current: currentRevision, update: updateRevision });
    }
    const status = computeStatus({
      set,
      pods,
      currentRevision: currentRevision.metadata.name ?? '',
      updateRevision: updateRevision.metadata.name ?? '',
      collisionCount,
      now,
    });
    if (statusChanged(set.status, status)) await this.writeStatus(set, status);
    const inUse = new Set([status.currentRevision ?? '', status.updateRevision ?? '', ...pods.map((p) => p.metadata.labels?.[REVISION_LABEL] ?? '')]);
    await this.history.prune(set, history.revisions, set.spec.revisionHistoryLimit ?? 10, inUse);
    if (failure !== undefined) throw failure;
    const wait = msUntilNextAvailable(pods, set.spec.minReadySeconds ?? 0, now);
    return wait === undefined ? undefined : { requeueAfterMs: wait + 50 };
  }

  /** The set's pods: owned members, and orphan members its selector matches (adopted). */
  private claimPods(set: Readonly<StatefulSet>): Promise<Readonly<Pod>[]> {
    return this.claim(set, labelSelectorOf(set), resources.pods, this.pods, (pod) => isMemberOf(set, pod));
  }

  /**
   * Carries out a pass's actions (shape/pass.ts), every creation at once; the first error, if
   * any, is returned (the pass still writes status).
   */
  private async carryOut(
    key: string,
    set: Readonly<StatefulSet>,
    actions: readonly Action[],
    revisions: { current: Readonly<ControllerRevision>; update: Readonly<ControllerRevision> },
  ): Promise<unknown> {
    const deletions = actions.flatMap((a) => (a.type === 'delete' ? [a] : []));
    const condemned = new Set(deletions.filter((d) => d.reason === 'condemned').map((d) => d.pod));
    const { errors } = await carryOut(
      { creations: actions.flatMap((a) => (a.type === 'create' ? [a] : [])), deletions: deletions.map((d) => d.pod) },
      {
        expectations: this.expectations,
        key,
        creations: 'all',
        create: ({ ordinal, revision: which }) => {
          const revision = revisions[which];
          const template = which === 'update' ? set.spec.template : (templateOf(revision) as PodTemplateSpec | undefined);
          return this.createPod(set, ordinal, template, revision.metadata.name ?? '');
        },
        delete: (pod) => this.deletePod(set, pod, condemned.has(pod)),
      },
    );
    return errors[0];
  }

  /** The pod created; undefined when a pod of that name exists already (not yet in the cache, or not ours): no event will come of it. */
  private async createPod(
    set: Readonly<StatefulSet>,
    ordinal: number,
    template: Readonly<PodTemplateSpec> | undefined,
    revisionName: string,
  ): Promise<Pod | undefined> {
    const pod = newStatefulPod(set, template, ordinal, revisionName);
    const name = pod.metadata.name!;
    try {
      await this.claims.ensure(set, ordinal);
      const created = await this.ctx.api.resource<Pod>(resources.pods, set.metadata.namespace).create(pod);
      void this.events.record(set, 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} successful`);
      return created;
    } catch (error) {
      if (isAlreadyExists(error)) return undefined;
      void this.events.record(
        set,
        'Warning',
        'FailedCreate',
        `create Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${(error as Error).message}`,
      );
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
      if (isNotFound(error)) throw error; // gone already: counted as deleted, no event
      void this.events.record(
        set,
        'Warning',
        'FailedDelete',
        `delete Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${(error as Error).message}`,
      );
      throw error;
    }
  }

  private async writeStatus(set: Readonly<StatefulSet>, status: StatefulSetStatus): Promise<void> {
    try {
      await this.ctx.api
        .resource(resources.statefulsets, set.metadata.namespace)
        .patch(set.metadata.name ?? '', 'merge', { status }, { subresource: 'status' });
    } catch (error) {
      if (!isNotFound(error)) throw error; // deleted meanwhile: its delete event brings us back
    }
  }
}

function statusOf(set: Readonly<StatefulSet>): StatefulSetStatus {
  const s = set.status ?? {};
  return {
    ...s,
    replicas: s.replicas ?? 0,
    readyReplicas: s.readyReplicas ?? 0,
    currentReplicas: s.currentReplicas ?? 0,
    updatedReplicas: s.updatedReplicas ?? 0,
    availableReplicas: s.availableReplicas ?? 0,
  };
}
