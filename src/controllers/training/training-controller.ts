// The training-job controller, one instance per framework (`pytorchjob-controller`,
// `tfjob-controller`) over one core: informers for the jobs, their pods, services and
// PodGroups, expectations per (job, replica type), and the shared work queue runner. A pass
// is training-sync.ts.
import type { KubeObject } from '../../api/meta.js';
import {
  Expectations, indexers, objectKey, WorkQueue, resources,
  type Informer, type ReconcileResult, type RunningController,
} from '../../client/index.js';
import { runOwnedQueue, type Controller, type ControllerContext } from '../context.js';
import { WrittenStatus } from '../job/written-status.js';
import type { FrameworkController } from './framework.js';
import { operatorName, replicaSpecsOf } from './names.js';
import { pytorchController } from './pytorch.js';
import { expectationKey, observedKey, ReplicaActions, type Kind } from './replica-actions.js';
import { RestartLedger } from './restart-ledger.js';
import { tensorflowController } from './tensorflow.js';
import { syncTrainingJob, type TrainingDeps } from './training-sync.js';
import type { TrainingJob } from './types.js';
import type { Pod } from '../../api/core/index.js';

const CONTROLLER_UID = 'controllerUid';

export class TrainingJobController implements Controller {
  readonly name: string;
  private readonly jobs: Informer<TrainingJob>;
  private readonly pods: Informer<Pod>;
  private readonly services: Informer<KubeObject>;
  private readonly podGroups: Informer<KubeObject>;
  private readonly queue = new WorkQueue<string>();
  private readonly expectations = new Expectations();
  private readonly ledger = new RestartLedger();
  private readonly written = new WrittenStatus<TrainingJob>();
  private readonly deps: TrainingDeps;
  private running: RunningController | undefined;

  constructor(private readonly ctx: ControllerContext, private readonly fc: FrameworkController, private readonly workers = 2) {
    this.name = operatorName(fc.framework);
    this.jobs = ctx.factory.informerFor<TrainingJob>(fc.resource);
    this.pods = ctx.factory.informerFor<Pod>(resources.pods);
    this.services = ctx.factory.informerFor<KubeObject>(resources.services);
    this.podGroups = ctx.factory.informerFor<KubeObject>(resources.podgroups);
    this.pods.addIndexer(CONTROLLER_UID, indexers.controllerUid);
    this.services.addIndexer(CONTROLLER_UID, indexers.controllerUid);
    const recorder = ctx.recorder(this.name);
    this.deps = {
      api: ctx.api, recorder, transactions: ctx.transactions, expectations: this.expectations, ledger: this.ledger, written: this.written,
      actions: new ReplicaActions(ctx.api, recorder, this.expectations, this.ledger),
    };
    this.watch();
  }

  start(): void {
    this.running = runOwnedQueue(this.ctx, { name: this.name, primary: this.jobs, queue: this.queue, workers: this.workers, reconcile: (key) => this.reconcile(key) });
  }

  async stop(): Promise<void> {
    this.queue.shutDown();
    await this.running?.stop();
  }

  /** The job controlling an object, when it is one of this framework's. */
  private ownerOf(object: Readonly<KubeObject>) {
    const ref = object.metadata.ownerReferences?.find((r) => r.controller === true);
    return ref && ref.kind === this.fc.framework.kind && ref.apiVersion.startsWith('kubeflow.org/') ? ref : undefined;
  }

  private watchOwned(informer: Informer<KubeObject>, kind: Kind | undefined): void {
    const enqueue = (object: Readonly<KubeObject>) => {
      const ref = this.ownerOf(object);
      if (ref) this.queue.add(`${object.metadata.namespace}/${ref.name}`);
      return ref;
    };
    informer.addEventHandler({
      onAdd: (object) => {
        const ref = enqueue(object);
        const key = ref && kind ? observedKey(object, ref.uid, kind) : undefined;
        if (key) this.expectations.creationObserved(key);
      },
      onUpdate: (_old, object) => void enqueue(object),
      onDelete: (object) => {
        const ref = enqueue(object);
        const key = ref && kind ? observedKey(object, ref.uid, kind) : undefined;
        if (key) this.expectations.deletionObserved(key, objectKey(object));
        if (kind === 'pods') this.ledger.forget(object.metadata.uid ?? '');
      },
    });
  }

  private watch(): void {
    this.jobs.addEventHandler({
      onAdd: (job) => this.queue.add(objectKey(job)),
      onUpdate: (_old, job) => this.queue.add(objectKey(job)),
      onDelete: (job) => {
        const uid = job.metadata.uid ?? '';
        this.written.forget(uid);
        for (const [type] of replicaSpecsOf(this.fc.framework, job)) {
          this.expectations.delete(expectationKey(uid, type, 'pods'));
          this.expectations.delete(expectationKey(uid, type, 'services'));
        }
      },
    });
    this.watchOwned(this.pods as unknown as Informer<KubeObject>, 'pods');
    this.watchOwned(this.services, 'services');
    this.watchOwned(this.podGroups, undefined);
  }

  private async reconcile(key: string): Promise<ReconcileResult | void> {
    const cached = this.jobs.get(key);
    if (!cached || cached.metadata.deletionTimestamp) return;
    const managedBy = cached.spec.runPolicy?.managedBy;
    if (managedBy && managedBy !== 'kubeflow.org/training-operator') return; // another controller's (e.g. MultiKueue)
    const job = this.written.fresh(cached);
    const uid = job.metadata.uid!;
    const group = this.podGroups.get(key);
    return syncTrainingJob(this.deps, this.fc, job, {
      pods: this.pods.byIndex(CONTROLLER_UID, uid),
      services: this.services.byIndex(CONTROLLER_UID, uid),
      podGroup: group,
    });
  }
}

export const pytorchJobController = (ctx: ControllerContext) => new TrainingJobController(ctx, pytorchController);
export const tfJobController = (ctx: ControllerContext) => new TrainingJobController(ctx, tensorflowController);
