// Training-job conditions as Kubeflow's UpdateJobConditions keeps them: one entry per type;
// Running and Restarting replace each other; Succeeded or Failed turns Running (and Restarting) off. Reasons are
// the kind followed by the state (PyTorchJobRunning, TFJobFailed, ...).
import { metaTime } from '../../api/meta.js';
import type { ConditionType, JobCondition, TrainingJob, TrainingJobStatus } from './types.js';

export function hasCondition(status: Readonly<TrainingJobStatus> | undefined, type: ConditionType): boolean {
  return conditionOf(status, type) !== undefined;
}

/** The condition of this type when it is True. */
export function conditionOf(status: Readonly<TrainingJobStatus> | undefined, type: ConditionType): JobCondition | undefined {
  return status?.conditions?.find((c) => c.type === type && c.status === 'True');
}

/** Succeeded or Failed: the job is over. */
export function finishedCondition(job: Readonly<TrainingJob>): 'Succeeded' | 'Failed' | undefined {
  if (hasCondition(job.status, 'Succeeded')) return 'Succeeded';
  if (hasCondition(job.status, 'Failed')) return 'Failed';
  return undefined;
}

export function setCondition(
  status: TrainingJobStatus,
  type: ConditionType,
  reason: string,
  message: string,
  now: Date,
  value: 'True' | 'False' = 'True',
): void {
  const at = metaTime(now);
  const conditions: JobCondition[] = [];
  for (const c of status.conditions ?? []) {
    if ((type === 'Running' && c.type === 'Restarting') || (type === 'Restarting' && c.type === 'Running')) continue;
    if ((type === 'Succeeded' || type === 'Failed') && (c.type === 'Running' || c.type === 'Restarting') && c.status === 'True') {
      conditions.push({ ...c, status: 'False', lastUpdateTime: at, lastTransitionTime: at });
      continue;
    }
    conditions.push(c);
  }
  const i = conditions.findIndex((c) => c.type === type);
  const old = i >= 0 ? conditions[i] : undefined;
  if (old && old.status === value && old.reason === reason && old.message === message) {
    status.conditions = conditions;
    return;
  }
  const next: JobCondition = {
    type,
    status: value,
    reason,
    message,
    lastUpdateTime: at,
    lastTransitionTime: old?.status === value ? (old.lastTransitionTime ?? at) : at,
  };
  if (i >= 0) conditions.splice(i, 1);
  // The last condition is the job's current state (what kubectl's STATE column shows).
  conditions.push(next);
  status.conditions = conditions;
}

/** The Restarting condition's message; restartingWhy reads `why` back (the restart Transaction's reason). */
export function restartingMessage(kind: string, job: Readonly<TrainingJob>, why: string): string {
  return `${restartingPrefix(kind, job)}${why}.`;
}

export function restartingWhy(kind: string, job: Readonly<TrainingJob>, message: string): string | undefined {
  const prefix = restartingPrefix(kind, job);
  return message.startsWith(prefix) && message.endsWith('.') ? message.slice(prefix.length, -1) : undefined;
}

function restartingPrefix(kind: string, job: Readonly<TrainingJob>): string {
  return `${kind} ${job.metadata.namespace}/${job.metadata.name} is restarting: `;
}
