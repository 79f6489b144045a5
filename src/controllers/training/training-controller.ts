// The training-job controller, one instance per framework (`pytorchjob-controller`,
// `tfjob-controller`) over one core: informers for the jobs, their pods, services and
// PodGroups, expectations per (job, replica type), and the shared work queue runner. A pass
// is training-sync.ts; the Transactions are observed on the informers (training-transactions.ts).
import type { KubeObject } from '../../api/meta.js';
import { Expectations, objectKey, resources, type Informer, type ReconcileResult } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { CONTROLLER_UID_INDEX } from '../shape/indexes.js';
import { WorkloadController, type OwnedHandlers } from '../shape/workload-controller.js';
import { WrittenStatus } from '../job/written-status.js';
import type { FrameworkController } from './framework.js';
import { operatorName, replicaSpecsOf } from './names.js';
import { pytorchController } from './pytorch.js';
import { expectationKey, observedKey, ReplicaActions, type Kind } from './replica-actions.js';
import { RestartLedger } from './restart-ledger.js';
import { tensorflowController } from './tensorflow.js';
import { syncTrainingJob, type TrainingDeps } from './training-sync.js';
import { TrainingOperations } from './training-transactions.js';
import type { TrainingJob } from './types.js';
import type { Pod } from '../../api/core/index.js';

export class TrainingJobController extends WorkloadController<TrainingJob> {
  private readonly pods: Informer<Pod>;
  private readonly services: Informer<KubeObject>;
  private readonly podGroups: Informer<KubeObject>;
  private readonly expectations = new Expectations();
  private readonly ledger = new RestartLedger();
  private readonly written = new WrittenStatus<TrainingJob>();
  private readonly deps: TrainingDeps;

  constructor(
    ctx: ControllerContext,
    private readonly fc: FrameworkController,
    workers = 2,
  ) {
    super(ctx, { name: operatorName(fc.framework), resource: fc.resource, workers });
    this.pods = this.owns<Pod>(resources.pods, this.countedPer('pods'));
    this.services = this.owns<KubeObject>(resources.services, this.countedPer('services'));
    this.podGroups = this.owns<KubeObject>(resources.podgroups);
    const observed = { pods: this.pods, services: this.services, podGroups: this.podGroups };
    new TrainingOperations(ctx.transactions, fc, observed).observe(this.primary, (key) => ctx.shards.owns(key));
    const recorder = ctx.recorder(this.name);
    this.deps = {
      api: ctx.api,
      recorder,
      expectations: this.expectations,
      ledger: this.ledger,
      written: this.written,
      actions: new ReplicaActions(ctx.api, recorder, this.expectations, this.ledger),
    };
  }

  protected override forget(job: Readonly<TrainingJob>): void {
    const uid = job.metadata.uid ?? '';
    this.written.forget(uid);
    for (const [type] of replicaSpecsOf(this.fc.framework, job)) {
      this.expectations.delete(expectationKey(uid, type, 'pods'));
      this.expectations.delete(expectationKey(uid, type, 'services'));
    }
  }

  /** Expectations are kept per (job, replica type, kind of object): the replica type is a label. */
  private countedPer<O extends KubeObject>(kind: Kind): OwnedHandlers<O, TrainingJob> {
    return {
      added: (object, owner) => {
        const key = owner ? observedKey(object, owner.uid, kind) : undefined;
        if (key) this.expectations.creationObserved(key);
      },
      deleted: (object, owner) => {
        const key = owner ? observedKey(object, owner.uid, kind) : undefined;
        if (key) this.expectations.deletionObserved(key, objectKey(object));
        // Here, not in a pass: a pass cannot tell a gone pod from one just created that the cache has not shown yet, and a deleted job has no pass.
        if (kind === 'pods') this.ledger.forget(object.metadata.uid ?? '');
      },
    };
  }

  protected async reconcile(key: string): Promise<ReconcileResult | void> {
    const cached = this.primary.get(key);
    if (!cached || cached.metadata.deletionTimestamp) return;
    const managedBy = cached.spec.runPolicy?.managedBy;
    if (managedBy && managedBy !== 'kubeflow.org/training-operator') return; // another controller's (e.g. MultiKueue)
    const job = this.written.fresh(cached);
    const uid = job.metadata.uid!;
    const group = this.podGroups.get(key);
    return syncTrainingJob(this.deps, this.fc, job, {
      pods: this.pods.byIndex(CONTROLLER_UID_INDEX, uid),
      services: this.services.byIndex(CONTROLLER_UID_INDEX, uid),
      podGroup: group,
    });
  }
}

export const pytorchJobController = (ctx: ControllerContext) => new TrainingJobController(ctx, pytorchController);
export const tfJobController = (ctx: ControllerContext) => new TrainingJobController(ctx, tensorflowController);
