// The Job a CronJob starts for one scheduled time (Kubernetes' getJobFromTemplate2). Its name
// is the CronJob's plus the scheduled time in minutes since the epoch, so a second attempt at
// the same time collides with the first instead of running twice.
import { newControllerRef } from '../../api/owner-references.js';
import { rfc3339In } from '../../util/cron/index.js';
import { SCHEDULED_TIMESTAMP_ANNOTATION, type CronJob, type Job } from './types.js';

export function jobNameFor(cronJob: Readonly<CronJob>, scheduledTime: number): string {
  return `${cronJob.metadata.name}-${Math.floor(scheduledTime / 60_000)}`;
}

export function jobFromTemplate(cronJob: Readonly<CronJob>, scheduledTime: number): Job {
  const template = structuredClone(cronJob.spec.jobTemplate);
  const annotations = { ...(template.metadata?.annotations ?? {}) };
  // In the CronJob's zone; UTC without one (Kubernetes loads the zone "", which is UTC).
  annotations[SCHEDULED_TIMESTAMP_ANNOTATION] = rfc3339In(scheduledTime, cronJob.spec.timeZone ?? 'UTC');
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobNameFor(cronJob, scheduledTime),
      namespace: cronJob.metadata.namespace!,
      labels: { ...(template.metadata?.labels ?? {}) },
      annotations,
      ownerReferences: [newControllerRef(cronJob, { apiVersion: 'batch/v1', kind: 'CronJob' })],
    },
    spec: (template.spec ?? {}) as Job['spec'],
  };
}
