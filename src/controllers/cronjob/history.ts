// successfulJobsHistoryLimit and failedJobsHistoryLimit: which finished Jobs go, oldest first
// (by start time, Jobs that never started counting as the oldest, then by name) as Kubernetes
// orders them.
import { finishedCondition, type CronJob, type Job } from './types.js';

function startOf(job: Readonly<Job>): number {
  const start = job.status?.startTime ? Date.parse(job.status.startTime) : NaN;
  return Number.isNaN(start) ? -Infinity : start;
}

function oldestFirst(a: Readonly<Job>, b: Readonly<Job>): number {
  const byStart = startOf(a) - startOf(b);
  if (byStart !== 0 && !Number.isNaN(byStart)) return byStart;
  return (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
}

function beyond(jobs: readonly Readonly<Job>[], limit: number | undefined): Readonly<Job>[] {
  if (limit === undefined || limit === null || jobs.length <= limit) return [];
  return [...jobs].sort(oldestFirst).slice(0, jobs.length - limit);
}

/** The finished Jobs past the CronJob's history limits, oldest first; none when neither limit is set. */
export function jobsPastHistoryLimits(cronJob: Readonly<CronJob>, jobs: readonly Readonly<Job>[]): Readonly<Job>[] {
  const live = jobs.filter((job) => !job.metadata.deletionTimestamp);
  const succeeded = live.filter((job) => finishedCondition(job) === 'Complete');
  const failed = live.filter((job) => finishedCondition(job) === 'Failed');
  return [...beyond(succeeded, cronJob.spec.successfulJobsHistoryLimit), ...beyond(failed, cronJob.spec.failedJobsHistoryLimit)];
}
