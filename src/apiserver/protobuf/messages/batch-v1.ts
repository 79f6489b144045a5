// batch/v1 Job and CronJob (api/batch/v1/generated.proto).
import { objectReference } from './core-v1-refs.js';
import { podTemplateSpec } from './core-v1-pod.js';
import { labelSelector, objectMeta } from './meta-v1.js';
import { bool, i32, i64, message, msg, PTR, REP, str, time } from './schema.js';

const podFailurePolicyRule = message('PodFailurePolicyRule', {
  1: str('action'),
  2: msg('onExitCodes', message('PodFailurePolicyOnExitCodesRequirement', { 1: str('containerName', PTR), 2: str('operator'), 3: i32('values', REP) })),
  3: msg('onPodConditions', message('PodFailurePolicyOnPodConditionsPattern', { 1: str('type'), 2: str('status') }), REP),
});

const successPolicyRule = message('SuccessPolicyRule', { 1: str('succeededIndexes', PTR), 2: i32('succeededCount', PTR) });

const jobSpec = message('JobSpec', {
  1: i32('parallelism', PTR),
  2: i32('completions', PTR),
  3: i64('activeDeadlineSeconds', PTR),
  11: msg('podFailurePolicy', message('PodFailurePolicy', { 1: msg('rules', podFailurePolicyRule, REP) })),
  16: msg('successPolicy', message('SuccessPolicy', { 1: msg('rules', successPolicyRule, REP) })),
  7: i32('backoffLimit', PTR),
  12: i32('backoffLimitPerIndex', PTR),
  13: i32('maxFailedIndexes', PTR),
  4: msg('selector', labelSelector),
  5: bool('manualSelector', PTR),
  6: msg('template', podTemplateSpec),
  8: i32('ttlSecondsAfterFinished', PTR),
  9: str('completionMode', PTR),
  10: bool('suspend', PTR),
  14: str('podReplacementPolicy', PTR),
  15: str('managedBy', PTR),
});

const jobCondition = message('JobCondition', {
  1: str('type'),
  2: str('status'),
  3: time('lastProbeTime'),
  4: time('lastTransitionTime'),
  5: str('reason'),
  6: str('message'),
});

const jobStatus = message('JobStatus', {
  1: msg('conditions', jobCondition, REP),
  2: time('startTime'),
  3: time('completionTime'),
  4: i32('active'),
  5: i32('succeeded'),
  6: i32('failed'),
  11: i32('terminating', PTR),
  7: str('completedIndexes'),
  10: str('failedIndexes', PTR),
  8: msg('uncountedTerminatedPods', message('UncountedTerminatedPods', { 1: str('succeeded', REP), 2: str('failed', REP) })),
  9: i32('ready', PTR),
});

export const job = message('Job', { 1: msg('metadata', objectMeta), 2: msg('spec', jobSpec), 3: msg('status', jobStatus) });

const cronJobSpec = message('CronJobSpec', {
  1: str('schedule'),
  8: str('timeZone', PTR),
  2: i64('startingDeadlineSeconds', PTR),
  3: str('concurrencyPolicy'),
  4: bool('suspend', PTR),
  5: msg('jobTemplate', message('JobTemplateSpec', { 1: msg('metadata', objectMeta), 2: msg('spec', jobSpec) })),
  6: i32('successfulJobsHistoryLimit', PTR),
  7: i32('failedJobsHistoryLimit', PTR),
});

const cronJobStatus = message('CronJobStatus', {
  1: msg('active', objectReference, REP),
  4: time('lastScheduleTime'),
  5: time('lastSuccessfulTime'),
});

export const cronJob = message('CronJob', { 1: msg('metadata', objectMeta), 2: msg('spec', cronJobSpec), 3: msg('status', cronJobStatus) });
