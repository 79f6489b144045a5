// The Job controller's writes to pods: creating them (slow-start batches, with expectations),
// deleting them, and removing the tracking finalizer. Pods the controller deletes on its own
// account (suspend, lower parallelism) lose the finalizer first, so they are not counted as
// failures; pods of a finished Job keep it until their outcome is recorded.
import { isNotFound, objectKey, resources, type ApiClient, type EventRecorder, type Expectations } from '../../client/index.js';
import { newJobPod } from './job-pod.js';
import { slowStartBatch } from '../slow-start.js';
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
  constructor(
    private readonly api: ApiClient,
    private readonly recorder: EventRecorder,
    private readonly expectations: Expectations,
    readonly released: ReleasedPods,
  ) {}

  /** Creates one pod per entry (its completion index, or undefined); returns how many were created. */
  async create(job: Readonly<Job>, indexes: ReadonlyArray<number | undefined>): Promise<{ created: number; errors: unknown[] }> {
    const owner = job.metadata.uid!;
    const client = this.api.resource<Pod>(resources.pods, job.metadata.namespace);
    this.expectations.expectCreations(owner, indexes.length);
    const result = await slowStartBatch(indexes, 1, async (index) => {
      try {
        const pod = await client.create(newJobPod(job, index));
        void this.recorder.record(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
      } catch (error) {
        this.expectations.creationObserved(owner);
        void this.recorder.record(job, 'Warning', 'FailedCreate', `Error creating: ${(error as Error).message}`);
        throw error;
      }
    });
    for (let i = 0; i < result.skipped; i++) this.expectations.creationObserved(owner);
    return { created: result.succeeded, errors: result.errors };
  }

  /**
   * Deletes pods; with `release`, removes their tracking finalizer first so that the deletion
   * does not count as a failure. Returns how many deletions went through.
   */
  async delete(job: Readonly<Job>, pods: readonly Readonly<Pod>[], release: boolean): Promise<{ deleted: number; errors: unknown[] }> {
    const owner = job.metadata.uid!;
    const client = this.api.resource<Pod>(resources.pods, job.metadata.namespace);
    this.expectations.expectDeletions(
      owner,
      pods.map((p) => objectKey(p)),
    );
    const outcomes = await Promise.allSettled(
      pods.map(async (pod) => {
        const name = pod.metadata.name!;
        try {
          if (release && hasTrackingFinalizer(pod)) await this.releaseOne(owner, pod);
          await client.delete(name, { preconditions: { uid: pod.metadata.uid! } });
          void this.recorder.record(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
        } catch (error) {
          this.expectations.deletionObserved(owner, objectKey(pod));
          if (isNotFound(error)) return;
          void this.recorder.record(job, 'Warning', 'FailedDelete', `Error deleting: ${(error as Error).message}`);
          throw error;
        }
      }),
    );
    const errors = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
    return { deleted: pods.length - errors.length, errors };
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
