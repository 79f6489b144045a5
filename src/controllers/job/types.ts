// The parts of Jobs the Job controller reads and writes (pods: src/api/core).
import type { KubeObject } from '../../api/meta.js';
import type { Pod, PodTemplateSpec } from '../../api/core/index.js';

export { JOB_NAME_LABEL, JOB_UID_LABEL, LEGACY_JOB_NAME_LABEL, LEGACY_JOB_UID_LABEL } from '../../api/defaults/workload-defaults.js';

/** Kept on every pod the controller creates until the pod's outcome is in the Job's status. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_LABEL = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';

export interface JobSpec {
  parallelism?: number;
  completions?: number | null;
  activeDeadlineSeconds?: number;
  backoffLimit?: number;
  template?: PodTemplateSpec;
  ttlSecondsAfterFinished?: number;
  completionMode?: 'NonIndexed' | 'Indexed';
  suspend?: boolean;
  podReplacementPolicy?: 'TerminatingOrFailed' | 'Failed';
  [field: string]: unknown;
}

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface JobCondition {
  type: string;
  status: ConditionStatus;
  lastProbeTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface JobStatus {
  conditions?: JobCondition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  terminating?: number;
  completedIndexes?: string;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
  ready?: number;
  [field: string]: unknown;
}

export interface Job extends KubeObject {
  spec: JobSpec;
  status?: JobStatus;
}

export function isSucceeded(pod: Readonly<Pod>): boolean {
  return pod.status?.phase === 'Succeeded';
}

export function isFinished(pod: Readonly<Pod>): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** Still running or about to: not finished and not being deleted. */
export function isActive(pod: Readonly<Pod>): boolean {
  return !isFinished(pod) && !pod.metadata.deletionTimestamp;
}

export function hasTrackingFinalizer(pod: Readonly<Pod>): boolean {
  return pod.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER) === true;
}

/** The completion index of a pod of an Indexed job, or undefined when it has none (or a bad one). */
export function completionIndexOf(pod: Readonly<Pod>): number | undefined {
  const text = pod.metadata.annotations?.[COMPLETION_INDEX_ANNOTATION] ?? pod.metadata.labels?.[COMPLETION_INDEX_LABEL];
  if (text === undefined || !/^\d+$/.test(text)) return undefined;
  const index = Number(text);
  return Number.isSafeInteger(index) ? index : undefined;
}

export function isIndexed(job: Readonly<Job>): boolean {
  return job.spec.completionMode === 'Indexed';
}

export function findCondition(job: Readonly<Job>, type: string): JobCondition | undefined {
  return job.status?.conditions?.find((c) => c.type === type);
}

/** Complete or Failed, with status True: the Job is done for good. */
export function finishedCondition(job: Readonly<Job>): JobCondition | undefined {
  return job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}
