// The Job controller's writes to pods: carrying out a pass's plan (shape/pass.ts: slow-start
// creations and deletions under expectations), and removing the tracking finalizer. Pods the controller deletes on its own
// account (suspend, lower parallelism) lose the finalizer first, so they are not counted as
// failures; pods of a finished Job keep it until their outcome is recorded.
import { isNotFound, resources, type ApiClient, type EventRecorder, type Expectations } from '../../client/index.js';
import { PodControl } from '../replicaset/pod-control.js';
import { carryOut, type Outcome } from '../shape/pass.js';
import { newJobPod } from './job-pod.js';
import type { JobPodPlan } from './manage-pods.js';
import { hasTrackingFinalizer, JOB_TRACKING_FINALIZER, type Job } from './types.js';
import type { Pod } from '../../api/core/index.js';

/** Pod uids whose finalizer this controller removed, per job uid, until the informer shows it. */
export class ReleasedPods {
  private readonly byJob = new Map<string, Set<string>>();

  of(jobUid: string): ReadonlySet<string> {
    return this.byJob.get(jobUid) ?? new Set();
  }

  add(jobUid: string, podUid: string): void {
    let set = this.byJob.get(jobUid);
    if (!set) this.byJob.set(jobUid, (set = new Set()));
    set.add(podUid);
  }

  /** The informer shows the pod without the finalizer (or gone). */
  observed(jobUid: string, podUid: string): void {
    const set = this.byJob.get(jobUid);
    if (!set) return;
    set.delete(podUid);
    if (set.size === 0) this.byJob.delete(jobUid);
  }

  forget(jobUid: string): void {
    this.byJob.delete(jobUid);
  }
}

export class PodActionError extends Error {
  constructor(
    readonly errors: unknown[],
    what: string,
  ) {
    super(`${errors.length} pod ${what} failed; first: ${errors[0] instanceof Error ? errors[0].message : String(errors[0])}`, { cause: errors[0] });
  }
}

export class JobPodActions {
  private readonly podControl: PodControl;

  constructor(
    private readonly api: ApiClient,
    private readonly recorder: EventRecorder,
    private readonly expectations: Expectations,
    readonly released: ReleasedPods,
  ) {
    this.podControl = new PodControl(api, recorder);
  }

  /** Creates one pod per creation (its completion index, or undefined) and deletes the plan's pods, releasing them first when it says so. */
  carryOut(job: Readonly<Job>, plan: JobPodPlan): Promise<Outcome<number | undefined, Pod, Pod>> {
    const owner = job.metadata.uid!;
    return carryOut(plan, {
      expectations: this.expectations,
      key: owner,
      create: (index) => this.podControl.create(job, newJobPod(job, index)),
      delete: async (pod) => {
        if (plan.release && hasTrackingFinalizer(pod)) {
          await this.releaseOne(owner, pod).catch((error: unknown) => {
            void this.recorder.record(job, 'Warning', 'FailedDelete', `Error deleting: ${(error as Error).message}`);
            throw error;
          });
        }
        await this.podControl.delete(job, pod);
      },
    });
  }

  /** Removes the tracking finalizer; returns the uids whose pod no longer holds it (gone counts). */
  async release(ownerUid: string, pods: readonly Readonly<Pod>[]): Promise<{ released: Set<string>; errors: unknown[] }> {
    const released = new Set<string>();
    const outcomes = await Promise.allSettled(
      pods.map(async (pod) => {
        await this.releaseOne(ownerUid, pod);
        released.add(pod.metadata.uid!);
      }),
    );
    return { released, errors: outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : [])) };
  }

  private async releaseOne(ownerUid: string, pod: Readonly<Pod>): Promise<void> {
    const uid = pod.metadata.uid!;
    this.released.add(ownerUid, uid);
    try {
      // As Kubernetes does: a strategic merge patch that names only our finalizer, so the
      // finalizers of others survive whatever the cache shows.
      await this.api
        .resource<Pod>(resources.pods, pod.metadata.namespace)
        .patch(pod.metadata.name!, 'strategic', { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [JOB_TRACKING_FINALIZER] } });
    } catch (error) {
      if (isNotFound(error)) return;
      this.released.observed(ownerUid, uid);
      throw error;
    }
  }
}
