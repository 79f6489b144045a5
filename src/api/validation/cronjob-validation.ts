// batch/v1 CronJob rules (pkg/apis/batch/validation: ValidateCronJobCreate/Update). The Job
// template is checked with the Job's own rules, its errors moved under spec.jobTemplate.spec.
import type { FieldError, KubeObject } from '../meta.js';
import { CronParseError, isKnownTimeZone, parseCron } from '../../util/cron/index.js';
import { invalid, notSupported, required } from './field-errors.js';
import { validateJob } from './job-validation.js';
import { obj, type Obj } from './util.js';

/** Job names are `<cronjob>-<minutes since epoch>` (11 characters at most) and must stay DNS labels of 63. */
const MAX_NAME_LENGTH = 52;
const CONCURRENCY_POLICIES = ['Allow', 'Forbid', 'Replace'];

export function validateCronJob(cronJob: KubeObject, old?: KubeObject): FieldError[] {
  const errors: FieldError[] = [];
  const name = cronJob.metadata.name ?? '';
  if (name.length > MAX_NAME_LENGTH) errors.push(invalid('metadata.name', name, `must be no more than ${MAX_NAME_LENGTH} characters`));
  const spec = obj(cronJob['spec']);
  const oldSchedule = old ? obj(old['spec'])['schedule'] : undefined;
  errors.push(...validateSchedule(spec, typeof oldSchedule === 'string' && hasTimeZonePrefix(oldSchedule)));
  errors.push(...validateTimeZone(spec['timeZone']));
  for (const key of ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
    const value = spec[key];
    if (typeof value === 'number' && value < 0) errors.push(invalid(`spec.${key}`, value, 'must be greater than or equal to 0'));
  }
  const policy = spec['concurrencyPolicy'];
  if (policy === undefined || policy === null || policy === '') errors.push(required('spec.concurrencyPolicy'));
  else if (!CONCURRENCY_POLICIES.includes(String(policy))) errors.push(notSupported('spec.concurrencyPolicy', policy, CONCURRENCY_POLICIES));
  errors.push(...validateJobTemplate(obj(spec['jobTemplate'])));
  return errors;
}

function hasTimeZonePrefix(schedule: string): boolean {
  return schedule.includes('TZ');
}

/** Kubernetes took `TZ=zone` in the schedule before spec.timeZone existed; new ones must use the field. */
function validateSchedule(spec: Obj, oldUsedTimeZonePrefix: boolean): FieldError[] {
  const schedule = spec['schedule'];
  if (typeof schedule !== 'string' || schedule === '') return [required('spec.schedule')];
  if (hasTimeZonePrefix(schedule)) {
    if (spec['timeZone'] !== undefined && spec['timeZone'] !== null) {
      return [invalid('spec.schedule', schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule')];
    }
    if (!oldUsedTimeZonePrefix) return [invalid('spec.schedule', schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead')];
    return [];
  }
  try {
    parseCron(schedule);
    return [];
  } catch (error) {
    if (error instanceof CronParseError) return [invalid('spec.schedule', schedule, error.message)];
    throw error;
  }
}

function validateTimeZone(timeZone: unknown): FieldError[] {
  if (timeZone === undefined || timeZone === null) return [];
  const zone = String(timeZone);
  if (zone === '') return [invalid('spec.timeZone', zone, 'timeZone must be nil or non-empty string')];
  if (zone.toLowerCase() === 'local')
    return [invalid('spec.timeZone', zone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  if (!isKnownTimeZone(zone)) return [invalid('spec.timeZone', zone, `unknown time zone ${zone}`)];
  return [];
}

/**
 * The template's spec as a Job's, minus the selector the Job will generate on creation (a
 * template may not set one, nor ask for a manual one).
 */
function validateJobTemplate(template: Obj): FieldError[] {
  const jobSpec = obj(template['spec']);
  const errors: FieldError[] = [];
  if (jobSpec['selector'] !== undefined && jobSpec['selector'] !== null) {
    errors.push(invalid('spec.jobTemplate.spec.selector', jobSpec['selector'], '`selector` will be auto-generated'));
  }
  if (jobSpec['manualSelector'] === true) errors.push(notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  const asJob: KubeObject = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: obj(template['metadata']) as KubeObject['metadata'],
    spec: { ...jobSpec, selector: undefined },
  };
  for (const error of validateJob(asJob)) {
    if (error.field === 'spec.selector' || error.field.startsWith('spec.selector.')) continue;
    errors.push({ ...error, field: error.field.replace(/^spec\./, 'spec.jobTemplate.spec.') });
  }
  return errors;
}
