// Defaults of apps/v1 and batch/v1 kinds (SetDefaults_Deployment, _ReplicaSet, _DaemonSet, _Job).
import { isObject, type KubeObject } from '../meta.js';
import { defaultPodSpec } from './pod-defaults.js';
import { ensureObject, setDefault, type Obj } from './util.js';

/** Defaults the pod template of a workload, if it has one. */
function defaultTemplate(spec: Obj): void {
  const template = spec['template'];
  if (isObject(template)) defaultPodSpec(ensureObject(template, 'spec'));
}

export function applyDeploymentDefaults(deployment: KubeObject): void {
  const spec = ensureObject(deployment, 'spec');
  setDefault(spec, 'replicas', 1);
  const strategy = ensureObject(spec, 'strategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy['type'] === 'RollingUpdate') {
    const rolling = ensureObject(strategy, 'rollingUpdate');
    setDefault(rolling, 'maxUnavailable', '25%');
    setDefault(rolling, 'maxSurge', '25%');
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  setDefault(spec, 'progressDeadlineSeconds', 600);
  defaultTemplate(spec);
}

export function applyReplicaSetDefaults(replicaSet: KubeObject): void {
  const spec = ensureObject(replicaSet, 'spec');
  setDefault(spec, 'replicas', 1);
  defaultTemplate(spec);
}

export function applyDaemonSetDefaults(daemonSet: KubeObject): void {
  const spec = ensureObject(daemonSet, 'spec');
  const strategy = ensureObject(spec, 'updateStrategy');
  setDefault(strategy, 'type', 'RollingUpdate');
  if (strategy['type'] === 'RollingUpdate') {
    const rolling = ensureObject(strategy, 'rollingUpdate');
    setDefault(rolling, 'maxUnavailable', 1);
    setDefault(rolling, 'maxSurge', 0);
  }
  setDefault(spec, 'revisionHistoryLimit', 10);
  defaultTemplate(spec);
}

/** Labels the server puts on a Job's pods, and the selector that picks them. */
export const JOB_UID_LABEL = 'batch.kubernetes.io/controller-uid';
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
export const LEGACY_JOB_UID_LABEL = 'controller-uid';
export const LEGACY_JOB_NAME_LABEL = 'job-name';

/**
 * Generates a Job's selector from its uid, as the Kubernetes job strategy does on create:
 * the pod template gets the controller-uid and job-name labels, the selector matches the uid.
 * Does nothing with spec.manualSelector true, an existing selector, or no uid yet.
 */
export function generateJobSelector(job: KubeObject): void {
  const spec = ensureObject(job, 'spec');
  const uid = job.metadata.uid;
  if (spec['manualSelector'] === true || isObject(spec['selector']) || !uid) return;
  const name = job.metadata.name ?? '';
  const template = ensureObject(spec, 'template');
  const metadata = ensureObject(template, 'metadata');
  const labels = ensureObject(metadata, 'labels');
  labels[JOB_UID_LABEL] = uid;
  labels[JOB_NAME_LABEL] = name;
  labels[LEGACY_JOB_UID_LABEL] = uid;
  labels[LEGACY_JOB_NAME_LABEL] = name;
  spec['selector'] = { matchLabels: { [JOB_UID_LABEL]: uid } };
}

export function applyJobDefaults(job: KubeObject): void {
  const spec = ensureObject(job, 'spec');
  const unset = (key: string): boolean => spec[key] === undefined || spec[key] === null;
  if (unset('completions') && unset('parallelism')) {
    spec['completions'] = 1;
    spec['parallelism'] = 1;
  }
  setDefault(spec, 'parallelism', 1);
  if (unset('backoffLimit')) spec['backoffLimit'] = unset('backoffLimitPerIndex') ? 6 : 2147483647;
  setDefault(spec, 'completionMode', 'NonIndexed');
  setDefault(spec, 'suspend', false);
  setDefault(spec, 'podReplacementPolicy', isObject(spec['podFailurePolicy']) ? 'Failed' : 'TerminatingOrFailed');
  if (isObject(spec['podFailurePolicy']) && Array.isArray(spec['podFailurePolicy']['rules'])) {
    for (const rule of spec['podFailurePolicy']['rules']) {
      if (!isObject(rule) || !Array.isArray(rule['onPodConditions'])) continue;
      for (const pattern of rule['onPodConditions']) if (isObject(pattern)) setDefault(pattern, 'status', 'True');
    }
  }
  generateJobSelector(job);
  defaultTemplate(spec);
  // A Job without labels takes its template's, as SetDefaults_Job does.
  const templateLabels = isObject(spec['template']) && isObject(spec['template']['metadata']) ? spec['template']['metadata']['labels'] : undefined;
  if (isObject(templateLabels) && Object.keys(job.metadata.labels ?? {}).length === 0) {
    job.metadata.labels = { ...(templateLabels as Record<string, string>) };
  }
}
