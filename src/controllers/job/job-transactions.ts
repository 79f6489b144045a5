// A Job's 'launch' Transaction, observed on the Jobs' informer rather than called from the
// reconcile: begun when the written status first shows a startTime (a Job created suspended
// begins when it is resumed), advanced as status.succeeded of completions, and ended when the
// Complete (Succeeded) or Failed condition is written. Only the farm member that owns the
// Job's key records it; one that first sees a running Job whose start nobody recorded (a
// restart, a shard taken over) begins it then.
import type { Informer } from '../../client/index.js';
import type { BeginOptions, TransactionRecorder } from '../transactions/recorder.js';
import { observeOwned, type OwnedObserver } from '../shape/owned-events.js';
import { finishedCondition, type Job } from './types.js';

export class JobOperations implements OwnedObserver<Job> {
  constructor(private readonly transactions: TransactionRecorder) {}

  /** `owns`: whether this process reconciles the key. */
  observe(jobs: Informer<Job>, owns: (key: string) => boolean): void {
    observeOwned(jobs, owns, this);
  }

  /** The first startTime written begins the launch. */
  begin(old: Readonly<Job>, job: Readonly<Job>): void {
    if (!old.status?.startTime && job.status?.startTime) void this.transactions.begin(job, 'launch', launchOf(job));
  }

  /** A running Job whose start nobody recorded (it started while no member watched) begins it now. */
  catchUp(job: Readonly<Job>): void {
    const start = job.status?.startTime;
    if (start && !finishedCondition(job)) this.transactions.beginUnlessRecordedSince(job, 'launch', start, launchOf(job));
  }

  /** Progress while it runs; the end once the status shows the Job finished. */
  settle(job: Readonly<Job>): void {
    if (!this.transactions.isOpen(job, 'launch')) return;
    const { done, total } = progressOf(job);
    const finished = finishedCondition(job);
    if (finished?.type === 'Failed') {
      void this.transactions.finish(job, 'launch', 'Failed', finished.message ?? finished.reason ?? 'Job failed');
      return;
    }
    void this.transactions.progress(job, 'launch', done, total);
    if (finished) void this.transactions.finish(job, 'launch', 'Succeeded', `Job completed: ${job.status?.succeeded ?? 0} pod(s) succeeded`);
  }
}

function launchOf(job: Readonly<Job>): BeginOptions {
  return { reason: 'Job started', ...progressOf(job) };
}

/** Succeeded pods of completions (1 when the Job has none: the first success completes it). */
function progressOf(job: Readonly<Job>): { done: number; total: number } {
  const total = job.spec.completions ?? 1;
  return { done: Math.min(job.status?.succeeded ?? 0, total), total };
}
