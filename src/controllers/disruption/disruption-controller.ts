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
import { indexers, isConflict, isNotFound, objectKey, resources, type EventRecorder, type Informer, type ReconcileResult } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { NAMESPACE_INDEX } from '../shape/indexes.js';
import { WorkloadController } from '../shape/workload-controller.js';
import { computeStatus, failSafeStatus } from './budget-status.js';
import type { ScaleSources } from './expected-scale.js';
import type { BudgetStatus } from '../../api/disruption/budget.js';

/** A budget that cannot be computed is tried again this often (besides every pod change). */
const FAIL_SAFE_RETRY_MS = 15_000;

export class DisruptionController extends WorkloadController<KubeObject> {
  /** Keys are budgets' namespace/name. */
  private readonly pods: Informer<KubeObject>;
  /** The controllers whose scale says how many pods a budget expects. */
  private readonly scaleSources: ScaleSources;
  private readonly events: EventRecorder;

  constructor(ctx: ControllerContext) {
    super(ctx, {
      name: 'disruption-controller',
      resource: resources.poddisruptionbudgets,
      workers: 2,
      predicates: { delete: () => false },
    });
    this.events = ctx.recorder(this.name);
    this.primary.addIndexer(NAMESPACE_INDEX, indexers.namespace);
    this.pods = this.watches(resources.pods, {
      onAdd: (pod) => this.enqueueBudgetsOf(pod),
      // Both: a pod relabelled out of a budget leaves it.
      onUpdate: (old, pod) => {
        this.enqueueBudgetsOf(old);
        this.enqueueBudgetsOf(pod);
      },
      onDelete: (pod) => this.enqueueBudgetsOf(pod),
    });
    this.pods.addIndexer(NAMESPACE_INDEX, indexers.namespace);
    this.scaleSources = {
      replicaSets: ctx.factory.informerFor(resources.replicasets),
      deployments: ctx.factory.informerFor(resources.deployments),
      statefulSets: ctx.factory.informerFor(resources.statefulsets),
      replicationControllers: ctx.factory.informerFor(resources.replicationcontrollers),
    };
  }

  private enqueueBudgetsOf(pod: Readonly<KubeObject>): void {
    for (const pdb of this.primary.byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')) {
      if (this.selects(pdb, pod)) this.queue.add(objectKey(pdb));
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

  protected async reconcile(key: string): Promise<ReconcileResult | void> {
    const pdb = this.primary.get(key);
    if (!pdb) return;
    const pods = this.pods.byIndex(NAMESPACE_INDEX, pdb.metadata.namespace ?? '').filter((pod) => this.selects(pdb, pod));
    if (pods.length === 0) void this.events.record(pdb, 'Normal', 'NoPods', 'No matching pods found');
    const now = new Date();
    let computed: ReturnType<typeof computeStatus>;
    try {
      computed = computeStatus(pdb, pods, this.scaleSources, now);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      void this.events.record(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${reason}`);
      await this.writeStatus(pdb, failSafeStatus(pdb, reason, now));
      return { requeueAfterMs: FAIL_SAFE_RETRY_MS };
    }
    if (computed.unmanaged.length > 0) {
      void this.events.record(
        pdb,
        'Warning',
        'UnmanagedPods',
        `Pods selected by this PodDisruptionBudget have no controller, so they are left out of the expected pods: ${computed.unmanaged.join(', ')}. An integer spec.minAvailable counts them.`,
      );
    }
    for (const name of computed.overdue) {
      const pod = pods.find((candidate) => candidate.metadata.name === name);
      if (pod)
        void this.events.record(
          pod,
          'Warning',
          'NotDeleted',
          `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.name} to be deleted but it wasn't`,
        );
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
