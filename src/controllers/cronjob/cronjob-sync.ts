// One pass of the CronJob controller over one CronJob (Kubernetes' cronjob controller v2,
// syncCronJob + cleanupFinishedJobs): bring status.active in step with the Jobs it owns, delete
// finished Jobs past the history limits, and start the Job of the latest scheduled time that is
// due. Returns how long until the next scheduled time, to look again then (no polling).
import { metaTime } from '../../api/meta.js';
import { isAlreadyExists, isNotFound, resources, type ApiClient, type EventRecorder } from '../../client/index.js';
import { CronParseError, isKnownTimeZone, parseCron, type CronSchedule } from '../../util/cron/index.js';
import type { WrittenStatus } from '../job/written-status.js';
import { jobsPastHistoryLimits } from './history.js';
import { jobFromTemplate, jobNameFor } from './job-from-template.js';
import { dueTimes, MAX_MISSED_TIMES } from './scheduled-times.js';
import { finishedCondition, type CronJob, type CronJobStatus, type Job, type JobReference } from './types.js';

export interface SyncDeps {
  api: ApiClient;
  recorder: EventRecorder;
  /** Milliseconds since the epoch: the controller's clock (a test's fake one). */
  now(): number;
  /** The zone of schedules without spec.timeZone: the controller's own, as in Kubernetes. */
  defaultTimeZone: string;
  /** Our status writes, until the informer shows them (a pass must not start a Job twice). */
  written: WrittenStatus<CronJob>;
}

/** Started a little after the scheduled time, so the clock has surely reached it. */
const NEXT_SCHEDULE_DELTA_MS = 100;

/** One pass over a CronJob: the status it is building, and whether that needs writing. */
interface Pass {
  cronJob: CronJob;
  status: CronJobStatus;
  changed: boolean;
}

export async function syncCronJob(deps: SyncDeps, cronJob: CronJob, jobs: readonly Readonly<Job>[]): Promise<number | undefined> {
  const pass: Pass = { cronJob, status: structuredClone(cronJob.status ?? {}), changed: false };
  pass.status.active ??= [];
  let requeueAfter: number | undefined;
  try {
    await reconcileActive(deps, pass, jobs);
    if (cronJob.metadata.deletionTimestamp) return undefined;
    await deleteFinishedPastLimits(deps, pass, jobs);
    requeueAfter = await startDueJob(deps, pass);
  } finally {
    if (pass.changed) await writeStatus(deps, pass);
  }
  return requeueAfter;
}

function sameJob(ref: JobReference, job: Readonly<Job>): boolean {
  return ref.uid === job.metadata.uid;
}

function removeActive(pass: Pass, uid: string | undefined): void {
  const before = pass.status.active!.length;
  pass.status.active = pass.status.active!.filter((ref) => ref.uid !== uid);
  if (pass.status.active.length !== before) pass.changed = true;
}

async function reconcileActive(deps: SyncDeps, pass: Pass, jobs: readonly Readonly<Job>[]): Promise<void> {
  const { cronJob, status } = pass;
  for (const job of jobs) {
    const listed = status.active!.some((ref) => sameJob(ref, job));
    const finished = finishedCondition(job);
    if (!listed && !finished) {
      // Not ours to list: a Job created by hand from the CronJob (kubectl create job --from),
      // or one whose creation a crash kept out of the status. Kubernetes only tells.
      void deps.recorder.record(cronJob, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata.name}`);
    } else if (listed && finished) {
      removeActive(pass, job.metadata.uid);
      void deps.recorder.record(cronJob, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name}, condition: ${finished}`);
    }
    const completion = job.status?.completionTime;
    if (finished === 'Complete' && completion && (!status.lastSuccessfulTime || Date.parse(completion) > Date.parse(status.lastSuccessfulTime))) {
      status.lastSuccessfulTime = completion;
      pass.changed = true;
    }
  }
  // Listed Jobs the cache does not hold may be gone, or merely not seen yet: ask the server.
  for (const ref of [...status.active!]) {
    if (jobs.some((job) => sameJob(ref, job))) continue;
    if (await jobIsGone(deps, cronJob, ref)) {
      removeActive(pass, ref.uid);
      void deps.recorder.record(cronJob, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
    }
  }
}

async function jobIsGone(deps: SyncDeps, cronJob: CronJob, ref: JobReference): Promise<boolean> {
  try {
    const job = await deps.api.resource<Job>(resources.jobs, cronJob.metadata.namespace).get(ref.name ?? '');
    return job.metadata.uid !== ref.uid;
  } catch (error) {
    if (isNotFound(error)) return true;
    throw error;
  }
}

async function deleteFinishedPastLimits(deps: SyncDeps, pass: Pass, jobs: readonly Readonly<Job>[]): Promise<void> {
  for (const job of jobsPastHistoryLimits(pass.cronJob, jobs)) await deleteJob(deps, pass, job.metadata.name!, job.metadata.uid);
}

/** Deletes a Job and its pods (propagation Background, as Kubernetes asks) and unlists it. */
async function deleteJob(deps: SyncDeps, pass: Pass, name: string, uid: string | undefined): Promise<void> {
  try {
    await deps.api.resource<Job>(resources.jobs, pass.cronJob.metadata.namespace).delete(name, {
      propagationPolicy: 'Background',
      ...(uid ? { preconditions: { uid } } : {}),
    });
  } catch (error) {
    if (!isNotFound(error)) {
      void deps.recorder.record(pass.cronJob, 'Warning', 'FailedDelete', `Deleted job: ${String(error)}`);
      throw error;
    }
  }
  removeActive(pass, uid);
  void deps.recorder.record(pass.cronJob, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`);
}

function scheduleOf(deps: SyncDeps, cronJob: CronJob): CronSchedule | undefined {
  const timeZone = cronJob.spec.timeZone;
  if (timeZone !== undefined && timeZone !== null && !isKnownTimeZone(timeZone)) {
    void deps.recorder.record(cronJob, 'Warning', 'UnknownTimeZone', `invalid timeZone: "${timeZone}": unknown time zone ${timeZone}`);
    return undefined;
  }
  try {
    return parseCron(cronJob.spec.schedule);
  } catch (error) {
    if (!(error instanceof CronParseError)) throw error;
    void deps.recorder.record(cronJob, 'Warning', 'UnparseableSchedule', `unparseable schedule: "${cronJob.spec.schedule}" : ${error.message}`);
    return undefined;
  }
}

/** Starts the Job of the latest due scheduled time, if any may start; ms until the next time. */
async function startDueJob(deps: SyncDeps, pass: Pass): Promise<number | undefined> {
  const { cronJob, status } = pass;
  if (cronJob.spec.suspend) return undefined; // resumed by an update, which enqueues it
  const schedule = scheduleOf(deps, cronJob);
  if (!schedule) return undefined;
  const timeZone = cronJob.spec.timeZone ?? deps.defaultTimeZone;
  const now = deps.now();
  const deadline = cronJob.spec.startingDeadlineSeconds;
  let earliest = Date.parse(status.lastScheduleTime ?? cronJob.metadata.creationTimestamp ?? '') || now;
  if (typeof deadline === 'number') earliest = Math.max(earliest, now - deadline * 1000);
  const due = dueTimes(schedule, timeZone, earliest, now);
  const requeueAfter = due.next === undefined ? undefined : due.next - now + NEXT_SCHEDULE_DELTA_MS;
  if (due.missed > MAX_MISSED_TIMES) {
    void deps.recorder.record(
      cronJob,
      'Warning',
      'TooManyMissedTimes',
      `too many missed start times: ${due.missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`,
    );
  }
  const scheduled = due.mostRecent;
  if (scheduled === undefined) return requeueAfter;
  if (typeof deadline === 'number' && scheduled + deadline * 1000 < now) {
    void deps.recorder.record(cronJob, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${new Date(scheduled).toUTCString()}`);
    return requeueAfter;
  }
  const name = jobNameFor(cronJob, scheduled);
  if (status.active!.some((ref) => ref.name === name) || Date.parse(status.lastScheduleTime ?? '') === scheduled) return requeueAfter;
  const policy = cronJob.spec.concurrencyPolicy ?? 'Allow';
  if (policy === 'Forbid' && status.active!.length > 0) {
    void deps.recorder.record(cronJob, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
    return requeueAfter;
  }
  if (policy === 'Replace') {
    for (const ref of [...status.active!]) await deleteJob(deps, pass, ref.name ?? '', ref.uid);
  }
  await createJob(deps, pass, scheduled);
  return requeueAfter;
}

async function createJob(deps: SyncDeps, pass: Pass, scheduled: number): Promise<void> {
  const { cronJob, status } = pass;
  const client = deps.api.resource<Job>(resources.jobs, cronJob.metadata.namespace);
  let job: Job;
  try {
    job = await client.create(jobFromTemplate(cronJob, scheduled));
    void deps.recorder.record(cronJob, 'Normal', 'SuccessfulCreate', `Created job ${job.metadata.name}`);
  } catch (error) {
    if (!isAlreadyExists(error)) {
      void deps.recorder.record(cronJob, 'Warning', 'FailedCreate', `Error creating job: ${String(error)}`);
      throw error;
    }
    // Created by an earlier pass whose status write was lost: take it up rather than retry for ever.
    job = await client.get(jobNameFor(cronJob, scheduled));
    if (!job.metadata.ownerReferences?.some((ref) => ref.uid === cronJob.metadata.uid)) throw error;
  }
  if (!finishedCondition(job) && !status.active!.some((ref) => sameJob(ref, job))) {
    status.active!.push({
      apiVersion: 'batch/v1',
      kind: 'Job',
      namespace: job.metadata.namespace!,
      name: job.metadata.name!,
      uid: job.metadata.uid!,
      resourceVersion: job.metadata.resourceVersion!,
    });
  }
  status.lastScheduleTime = metaTime(new Date(scheduled));
  pass.changed = true;
}

async function writeStatus(deps: SyncDeps, pass: Pass): Promise<void> {
  const client = deps.api.resource<CronJob>(resources.cronjobs, pass.cronJob.metadata.namespace);
  deps.written.wrote(pass.cronJob, await client.updateStatus({ ...pass.cronJob, status: pass.status }));
}
