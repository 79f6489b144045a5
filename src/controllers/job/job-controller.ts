// The Job controller (`job-controller`), after kube-controller-manager's: runs a Job's pods to
// its completions within parallelism, backoffLimit and activeDeadlineSeconds, NonIndexed or
// Indexed, suspendable, and deletes it ttlSecondsAfterFinished after it finished. A pass is
// job-sync.ts; its Transactions are observed on the Jobs' informer (job-transactions.ts); this
// file wires informers, expectations and the queue, and releases the tracking finalizer of
// pods whose Job is gone or going.
import type { KubeObject } from '../../api/meta.js';
import { controllerRefOfKind } from '../../api/owner-references.js';
import { Expectations, resources, type IndexFunc, type Informer, type ReconcileResult } from '../../client/index.js';
import type { ControllerContext } from '../context.js';
import { CONTROLLER_UID_INDEX } from '../shape/indexes.js';
import { WorkloadController } from '../shape/workload-controller.js';
import { DEFAULT_POD_FAILURE_BACKOFF, FailureBackoff, type BackoffPolicy } from './failure-backoff.js';
import { JobPodActions, PodActionError, ReleasedPods } from './job-pod-actions.js';
import { syncJob, type SyncDeps } from './job-sync.js';
import { JobOperations } from './job-transactions.js';
import { hasTrackingFinalizer, type Job } from './types.js';
import { WrittenStatus } from './written-status.js';
import type { Pod } from '../../api/core/index.js';

export interface JobControllerOptions {
  workers?: number;
  /** Delay before failed pods are replaced: base (doubling per failure) and cap. Default 10 s and 10 min. */
  podFailureBackoff?: BackoffPolicy;
}

const OWNER_KEY = 'job-controller/ownerKey';

/** `namespace/name` of the Job controlling a pod: finds the pods of a Job that no longer exists. */
const byOwningJob: IndexFunc<KubeObject> = (pod) => {
  const ref = jobRef(pod);
  return ref ? [`${pod.metadata.namespace}/${ref.name}`] : [];
};

function jobRef(pod: Readonly<KubeObject>) {
  return controllerRefOfKind(pod, resources.jobs);
}

export class JobController extends WorkloadController<Job> {
  private readonly pods: Informer<Pod>;
  private readonly expectations = new Expectations();
  private readonly released = new ReleasedPods();
  private readonly backoff: FailureBackoff;
  private readonly written = new WrittenStatus();
  private readonly deps: SyncDeps;

  constructor(ctx: ControllerContext, options: JobControllerOptions = {}) {
    super(ctx, { name: 'job-controller', resource: resources.jobs, workers: options.workers ?? 4 });
    this.pods = this.owns<Pod>(resources.pods, {
      expectations: { store: this.expectations, by: 'uid' },
      // Finalizer removals the cache has seen, so that a pass does not count a pod twice.
      updated: (_old, pod, owner) => {
        if (owner && !hasTrackingFinalizer(pod)) this.released.observed(owner.uid, pod.metadata.uid ?? '');
      },
      deleted: (pod, owner) => {
        if (owner) this.released.observed(owner.uid, pod.metadata.uid ?? '');
      },
    });
    this.pods.addIndexer(OWNER_KEY, byOwningJob);
    new JobOperations(ctx.transactions).observe(this.primary, (key) => ctx.shards.owns(key));
    this.backoff = new FailureBackoff(options.podFailureBackoff ?? DEFAULT_POD_FAILURE_BACKOFF);
    const recorder = ctx.recorder(this.name);
    this.deps = {
      api: ctx.api,
      recorder,
      expectations: this.expectations,
      actions: new JobPodActions(ctx.api, recorder, this.expectations, this.released),
      backoff: this.backoff,
      written: this.written,
    };
  }

  /** The key is still enqueued: the gone Job's pods' finalizers must go. */
  protected override forget(job: Readonly<Job>): void {
    const uid = job.metadata.uid ?? '';
    this.expectations.delete(uid);
    this.backoff.forget(uid);
    this.written.forget(uid);
    this.released.forget(uid);
  }

  protected async reconcile(key: string): Promise<ReconcileResult | void> {
    const cached = this.primary.get(key);
    const named = this.pods.byIndex(OWNER_KEY, key);
    // Pods whose Job is gone (or is a namesake with another uid) must not be held forever.
    const orphans = named.filter((p) => hasTrackingFinalizer(p) && (!cached || jobRef(p)?.uid !== cached.metadata.uid || cached.metadata.deletionTimestamp));
    if (orphans.length > 0) await this.releaseOrphans(orphans);
    if (!cached || cached.metadata.deletionTimestamp) return;
    const job = this.written.fresh(cached);
    return syncJob(this.deps, job, this.pods.byIndex(CONTROLLER_UID_INDEX, job.metadata.uid!));
  }

  private async releaseOrphans(pods: readonly Readonly<Pod>[]): Promise<void> {
    const byOwner = new Map<string, Readonly<Pod>[]>();
    for (const pod of pods) {
      const owner = jobRef(pod)?.uid ?? '';
      byOwner.set(owner, [...(byOwner.get(owner) ?? []), pod]);
    }
    const errors: unknown[] = [];
    for (const [owner, list] of byOwner) errors.push(...(await this.deps.actions.release(owner, list)).errors);
    if (errors.length > 0) throw new PodActionError(errors, 'finalizer removal(s)');
  }
}
