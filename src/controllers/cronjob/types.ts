// The parts of CronJobs and Jobs the CronJob controller reads and writes.
import type { KubeObject } from '../../api/meta.js';
import { controllerRefOfKind } from '../../api/owner-references.js';
import { resources, type ObjectReference } from '../../client/index.js';
import type { Job } from '../job/types.js';

export type { Job } from '../job/types.js';

/** RFC 3339 time (in the CronJob's zone) that a Job was scheduled for. */
export const SCHEDULED_TIMESTAMP_ANNOTATION = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';

/** A reference in status.active: an ObjectReference without a field path. */
export type JobReference = Omit<ObjectReference, 'fieldPath'>;

export interface CronJobSpec {
  schedule: string;
  timeZone?: string;
  startingDeadlineSeconds?: number;
  concurrencyPolicy?: ConcurrencyPolicy;
  suspend?: boolean;
  successfulJobsHistoryLimit?: number;
  failedJobsHistoryLimit?: number;
  jobTemplate: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };
}

export interface CronJobStatus {
  active?: JobReference[];
  lastScheduleTime?: string;
  lastSuccessfulTime?: string;
}

export interface CronJob extends KubeObject {
  spec: CronJobSpec;
  status?: CronJobStatus;
}

/** The condition type that finished a Job (Complete or Failed), if it finished. */
export function finishedCondition(job: Readonly<Job>): 'Complete' | 'Failed' | undefined {
  for (const condition of job.status?.conditions ?? []) {
    if ((condition.type === 'Complete' || condition.type === 'Failed') && condition.status === 'True') return condition.type;
  }
  return undefined;
}

/** The controlling owner reference, when it is a batch CronJob. */
export function cronJobOwner(object: Readonly<KubeObject>) {
  return controllerRefOfKind(object, resources.cronjobs);
}
