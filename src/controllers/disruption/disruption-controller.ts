// The disruption controller, as Kubernetes': keeps every PodDisruptionBudget's status (how many
// selected pods are healthy, how many the budget needs, how many may be disrupted now) current as
// pods come, go and become ready. The eviction subresource spends what it writes; this
// controller forgets evictions whose pod was not deleted within two minutes.
//
// Its status write carries the resourceVersion it read: an eviction that spent a disruption
// meanwhile makes it fail, and the next pass computes from the budget as the eviction left it.
import type { KubeObject } from '../../api/meta.js';
import { fromLabelSelectorObject } from '../../api/selectors/index.js';
import { semanticEqual } from '../../util/json-equal.js';
import {
  indexers, isConflict, isNotFound, objectKey, resources, type EventRecorder, type Informer, type ReconcileResult,
} from '../../client/index.js';
import type { Controller, ControllerContext } from '../context.js';
import { NAMESPACE_INDEX } from '../shape/indexes.js';
import { WorkloadController } from '../shape/workload-controller.js';
import { computeStatus, failSafeStatus } from './budget-status.js';
import type { BudgetStatus } from '../../api/disruption/budget.js';

/** A budget that cannot be computed is tried again this often (besides every pod change). */
const FAIL_SAFE_RETRY_MS = 15_000;

export class DisruptionController implements Controller {
  readonly name = 'disruption-controller';
  /** Keys are budgets' namespace/name. */
  private readonly shape: WorkloadController<KubeObject>;
  private readonly budgets: Informer<KubeObject>;
  private readonly pods: Informer<KubeObject>;
  private readonly replicaSets: Informer<KubeObject>;
  private readonly deployments: Informer<KubeObject>;
  private readonly statefulSets: Informer<KubeObject>;
  private readonly replicationControllers: Informer<KubeObject>;
  private readonly events: EventRecorder;

  constructor(private readonly ctx: ControllerContext) {
    this.events = ctx.recorder(this.name);
    this.shape = new WorkloadController<KubeObject>(ctx, {
      name: this.name, resource: resources.poddisruptionbudgets, workers: 2, reconcile: (key) => this.sync(key),
      predicates: { delete: () => false },
    });
    this.budgets = this.shape.primary;
    this.budgets.addIndexer(NAMESPACE_INDEX, indexers.namespace);
    this.pods = this.shape.watches(resources.pods, {
      onAdd: (pod) => this.enqueueBudgetsOf(pod),
      // Both: a pod relabelled out of a budget leaves it.
      onUpdate: (old, pod) => {
        this.enqueueBudgetsOf(old);
        this.enqueueBudgetsOf(pod);
      },
      onDelete: (pod) => this.enqueueBudgetsOf(pod),
    });
    this.pods.addIndexer(NAMESPACE_INDEX, indexers.namespace);
    this.replicaSets = ctx.factory.informerFor(resources.replicasets);
    this.deployments = ctx.factory.informerFor(resources.deployments);
    this.statefulSets = ctx.factory.informerFor(resources.statefulsets);
    this.replicationControllers = ctx.factory.informerFor(resources.replicationcontrollers);
  }

  start(): void {
    this.shape.start();
  }

  stop(): Promise<void> {
    return this.shape.stop();
  }

  private enqueueBudgetsOf(pod: Readonly<KubeObject>): void {
    for (const pdb of this.budgets.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')) {
      if (this.selects(pdb, pod)) this.shape.queue.add(objectKey(pdb));
    }
  }

  /** The controller's reading of a selector: missing selects nothing, empty selects every pod. */
  private selects(pdb: Readonly<KubeObject>, pod: Readonly<KubeObject>): boolean {
    try {
      return fromLabelSelectorObject((pdb['spec'] as { selector?: Record<string, unknown> } | undefined)?.selector).matches(pod.metadata.labels);
    } catch {
      return false;
    }
  }

  private async sync(key: string): Promise<ReconcileResult | void> {
    const pdb = this.budgets.get(key);
    if (!pdb) return;
    const pods = this.pods.byIndex(NAMESPACE_INDEX, pdb.metadata.namespace ?? '').filter((pod) => this.selects(pdb, pod));
    if (pods.length === 0) void this.events.record(pdb, 'Normal', 'NoPods', 'No matching pods found');
    const now = new Date();
    let computed: ReturnType<typeof computeStatus>;
    try {
      computed = computeStatus(pdb, pods, { replicaSets: this.replicaSets, deployments: this.deployments, statefulSets: this.statefulSets, replicationControllers: this.replicationControllers }, now);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      void this.events.record(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${reason}`);
      await this.writeStatus(pdb, failSafeStatus(pdb, reason, now));
      return { requeueAfterMs: FAIL_SAFE_RETRY_MS };
    }
    if (computed.unmanaged.length > 0) {
      void this.events.record(pdb, 'Warning', 'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget have no controller, so they are left out of the expected pods: ${computed.unmanaged.join(', ')}. An integer spec.minAvailable counts them.`);
    }
    for (const name of computed.overdue) {
      const pod = pods.find((candidate) => candidate.metadata.name === name);
      if (pod) void this.events.record(pod, 'Warning', 'NotDeleted', `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.name} to be deleted but it wasn't`);
    }
    await this.writeStatus(pdb, computed.status);
    // +1 s: disruptedPods times are whole seconds.
    return computed.recheckAt === undefined ? undefined : { requeueAfterMs: Math.max(0, computed.recheckAt - now.getTime()) + 1000 };
  }

  /** Writes the status unless it is already so; a lost race waits for the informer's newer budget. */
  private async writeStatus(pdb: Readonly<KubeObject>, status: BudgetStatus): Promise<void> {
    if (semanticEqual(pdb['status'], status)) return;
    try {
      await this.ctx.api.resource(resources.poddisruptionbudgets, pdb.metadata.namespace).updateStatus({ ...pdb, status } as KubeObject);
    } catch (error) {
      // Changed meanwhile (an eviction spent a disruption): its update event enqueues it again.
      if (isConflict(error) || isNotFound(error)) return;
      throw error;
    }
  }
}
