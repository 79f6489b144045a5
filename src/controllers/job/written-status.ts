// The Job as this controller last wrote it, for as long as the informer still shows an older
// version. A Job's status accumulates (succeeded and failed counts), so a pass that read a
// status older than the controller's own last write would count from stale numbers; a write
// from a stale read is refused anyway (resourceVersion precondition), but the decisions taken
// before it (pods to create) would not be.
import type { KubeObject } from '../../api/meta.js';
import type { Job } from './types.js';

interface Written<T> {
  job: T;
  /** Versions older than `job` that the informer may still show. */
  stale: Set<string>;
}

/** Also used by the training-job controller, whose jobs' status (restarts) accumulates too. */
export class WrittenStatus<T extends KubeObject = Job> {
  private readonly byUid = new Map<string, Written<T>>();

  /** The freshest Job known: ours when the cache still shows a version we wrote over. */
  fresh(cached: Readonly<T>): Readonly<T> {
    const uid = cached.metadata.uid ?? '';
    const written = this.byUid.get(uid);
    if (!written) return cached;
    if (written.stale.has(cached.metadata.resourceVersion ?? '')) return written.job;
    // The cache caught up with (or went past) our write.
    this.byUid.delete(uid);
    return cached;
  }

  /** Records a write of `job` made on top of version `base`. */
  wrote(base: Readonly<T>, job: T): void {
    if (job.metadata.resourceVersion === base.metadata.resourceVersion) return; // the server had nothing to change
    const uid = job.metadata.uid ?? '';
    const previous = this.byUid.get(uid);
    const stale = previous?.stale ?? new Set<string>();
    stale.add(base.metadata.resourceVersion ?? '');
    this.byUid.set(uid, { job, stale });
  }

  forget(uid: string): void {
    this.byUid.delete(uid);
  }
}
