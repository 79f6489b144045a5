// Job conditions and the rules that end a Job: backoffLimit (failed pods, and with restartPolicy
// OnFailure the restarts of running pods), activeDeadlineSeconds, completions.
import { metaTime } from '../../api/meta.js';
import type { Job, JobCondition, JobStatus } from './types.js';
import type { Pod } from '../../api/core/index.js';

export const REASON_BACKOFF_LIMIT = 'BackoffLimitExceeded';
export const REASON_DEADLINE = 'DeadlineExceeded';
export const REASON_COMPLETIONS = 'CompletionsReached';

export function newCondition(type: string, reason: string, message: string, now: Date, status: JobCondition['status'] = 'True'): JobCondition {
  const at = metaTime(now);
  return { type, status, lastProbeTime: at, lastTransitionTime: at, reason, message };
}

export const failedBackoff = (now: Date) => newCondition('Failed', REASON_BACKOFF_LIMIT, 'Job has reached the specified backoff limit', now);
export const failedDeadline = (now: Date) => newCondition('Failed', REASON_DEADLINE, 'Job was active longer than specified deadline', now);
export const completed = (now: Date) => newCondition('Complete', REASON_COMPLETIONS, 'Reached expected number of succeeded pods', now);

/** Sets the condition of its type; an unchanged status keeps its lastTransitionTime. */
export function setCondition(status: JobStatus, condition: JobCondition): void {
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === condition.type);
  if (i < 0) conditions.push(condition);
  else if (conditions[i]!.status !== condition.status) conditions[i] = condition;
  else conditions[i] = { ...condition, lastTransitionTime: conditions[i]!.lastTransitionTime ?? condition.lastTransitionTime };
  status.conditions = conditions;
}

/** With restartPolicy OnFailure, container restarts of unfinished pods count against backoffLimit. */
export function pastBackoffLimitOnFailure(job: Readonly<Job>, pods: readonly Readonly<Pod>[]): boolean {
  if (job.spec.template?.spec?.restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase !== 'Running' && phase !== 'Pending') continue;
    for (const s of pod.status?.initContainerStatuses ?? []) restarts += s.restartCount ?? 0;
    for (const s of pod.status?.containerStatuses ?? []) restarts += s.restartCount ?? 0;
  }
  const limit = job.spec.backoffLimit ?? 6;
  return limit === 0 ? restarts > 0 : restarts >= limit;
}

/** Milliseconds of activeDeadlineSeconds left (≤ 0: exceeded); undefined when no deadline runs. */
export function deadlineRemainingMs(job: Readonly<Job>, startTime: string | undefined, now: number): number | undefined {
  const deadline = job.spec.activeDeadlineSeconds;
  if (deadline === undefined || deadline === null || !startTime || job.spec.suspend === true) return undefined;
  const start = Date.parse(startTime);
  if (!Number.isFinite(start)) return undefined;
  return start + deadline * 1000 - now;
}

/** The time the Job finished (completionTime, or when its Failed condition became True). */
export function finishedAt(status: Readonly<JobStatus> | undefined): number | undefined {
  const condition = status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  if (!condition) return undefined;
  const text = condition.type === 'Complete' ? (status?.completionTime ?? condition.lastTransitionTime) : condition.lastTransitionTime;
  const at = Date.parse(text ?? '');
  return Number.isFinite(at) ? at : undefined;
}
