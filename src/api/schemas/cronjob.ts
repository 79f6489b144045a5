// batch/v1 CronJob: a Job template run on a cron schedule.
import { bool, enumStr, field, int32, int64, list, named, str, struct, time } from './builders.js';
import { JobSpec } from './batch.js';
import { ObjectMeta, kindSchema } from './meta.js';
import { ObjectReference } from './object-reference.js';

const BATCH = 'io.k8s.api.batch.v1';

const JobTemplateSpec = named(
  `${BATCH}.JobTemplateSpec`,
  struct('The Job a CronJob creates at each scheduled time.', {
    metadata: field(ObjectMeta, 'Labels and annotations copied to each Job.'),
    spec: field(JobSpec, 'Specification of each Job.'),
  }),
);

const CronJobSpec = named(
  `${BATCH}.CronJobSpec`,
  struct(
    'When and how a CronJob runs its Jobs.',
    {
      schedule: str('The schedule in cron format (5 fields, or a macro such as @hourly).'),
      timeZone: str("IANA time zone the schedule is read in, e.g. Europe/Berlin. Unset means the controller's own zone."),
      startingDeadlineSeconds: int64('Seconds after its scheduled time within which a missed Job may still start; later it counts as failed.'),
      concurrencyPolicy: enumStr('Allow (the default: Jobs may run concurrently), Forbid (skip a start while one runs) or Replace (replace the running one).', [
        'Allow',
        'Forbid',
        'Replace',
      ]),
      suspend: bool('When true, no further Jobs are started (running ones go on). Defaults to false.'),
      jobTemplate: field(JobTemplateSpec, 'The Job to create at each scheduled time.'),
      successfulJobsHistoryLimit: int32('How many successfully finished Jobs to keep. Defaults to 3.'),
      failedJobsHistoryLimit: int32('How many failed Jobs to keep. Defaults to 1.'),
    },
    ['schedule', 'jobTemplate'],
  ),
);

const CronJobStatus = named(
  `${BATCH}.CronJobStatus`,
  struct('Most recently observed state of a CronJob.', {
    active: list('The Jobs that are running.', ObjectReference, { 'x-kubernetes-list-type': 'atomic' }),
    lastScheduleTime: time('When a Job was last scheduled.'),
    lastSuccessfulTime: time('When a Job last completed successfully.'),
  }),
);

export const CronJobSchema = kindSchema({ group: 'batch', version: 'v1', kind: 'CronJob' }, 'Runs a Job on a cron schedule.', {
  spec: field(CronJobSpec, 'Specification of the desired behaviour of the cron job: schedule included.'),
  status: field(CronJobStatus, 'Current status of the cron job. Read-only.'),
});
