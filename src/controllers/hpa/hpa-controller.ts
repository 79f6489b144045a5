// The HorizontalPodAutoscaler controller (`horizontal-pod-autoscaler`, Kubernetes' podautoscaler):
// every sync period (15 s, --horizontal-pod-autoscaler-sync-period) each autoscaler is passed
// once (hpa-sync.ts). A change of an autoscaler's spec is passed at once; its own status writes
// are not, or every pass would start the next.
import { indexers, resources, type Informer, type ReconcileResult } from '../../client/index.js';
import type { KubeObject } from '../../api/meta.js';
import type { ControllerContext } from '../context.js';
import { NAMESPACE_INDEX } from '../shape/indexes.js';
import { WorkloadController } from '../shape/workload-controller.js';
import { emptyRecord, type ScalingRecord } from './behavior.js';
import { syncHpa, type SyncDeps } from './hpa-sync.js';
import type { Hpa } from './types.js';

export const DEFAULT_HPA_SYNC_PERIOD_MS = 15_000;

export interface HpaControllerOptions {
  syncPeriodMs?: number;
  now?: () => number;
}

export class HpaController extends WorkloadController<Hpa> {
  private readonly pods: Informer<KubeObject>;
  private readonly records = new Map<string, ScalingRecord>();
  private readonly deps: SyncDeps;
  private readonly syncPeriodMs: number;

  constructor(ctx: ControllerContext, options: HpaControllerOptions = {}) {
    super(ctx, {
      name: 'horizontal-pod-autoscaler',
      resource: resources.horizontalpodautoscalers,
      workers: 2,
      predicates: { update: (old, hpa) => old.metadata.generation !== hpa.metadata.generation, delete: () => false },
    });
    this.syncPeriodMs = options.syncPeriodMs ?? ctx.settings?.hpaSyncPeriodMs ?? DEFAULT_HPA_SYNC_PERIOD_MS;
    this.pods = ctx.factory.informerFor(resources.pods);
    // Each pass asks for one namespace's pods per autoscaler: an index, not a scan of all pods.
    this.pods.addIndexer(NAMESPACE_INDEX, indexers.namespace);
    this.deps = {
      api: ctx.api,
      recorder: ctx.recorder(this.name),
      podsIn: (namespace) => this.pods.byIndex(NAMESPACE_INDEX, namespace),
      record: (uid) => {
        let record = this.records.get(uid);
        if (!record) this.records.set(uid, (record = emptyRecord()));
        return record;
      },
      now: options.now ?? Date.now,
    };
  }

  protected override forget(hpa: Readonly<Hpa>): void {
    this.records.delete(hpa.metadata.uid ?? '');
  }

  protected async reconcile(key: string): Promise<ReconcileResult | void> {
    const cached = this.primary.get(key);
    if (!cached) return;
    await syncHpa(this.deps, structuredClone(cached) as Hpa);
    return { requeueAfterMs: this.syncPeriodMs };
  }
}
