// Defaults of batch/v1 CronJob (SetDefaults_CronJob). The Job template's pod spec is defaulted
// as any pod template is; the Job-level defaults (completions, backoffLimit, ...) are not: each
// Job gets them when it is created.
import { isObject, type KubeObject } from '../meta.js';
import { defaultPodSpec } from './pod-defaults.js';
import { ensureObject, setDefault } from './util.js';

export function applyCronJobDefaults(cronJob: KubeObject): void {
  const spec = ensureObject(cronJob, 'spec');
  setDefault(spec, 'concurrencyPolicy', 'Allow');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'successfulJobsHistoryLimit', 3);
  setDefault(spec, 'failedJobsHistoryLimit', 1);
  const jobTemplate = spec['jobTemplate'];
  const jobSpec = isObject(jobTemplate) ? jobTemplate['spec'] : undefined;
  const podTemplate = isObject(jobSpec) ? jobSpec['template'] : undefined;
  if (isObject(podTemplate)) defaultPodSpec(ensureObject(podTemplate, 'spec'));
}
