// Names, labels and selectors of a training job's replicas, as Kubeflow's GenGeneralName and
// GenLabels make them: pod and headless Service `<job>-<lower(type)>-<index>`.
import type { TrainingFramework } from '../../api/training-frameworks.js';
import type { ReplicaSpec, TrainingJob } from './types.js';
import { LABEL_JOB_NAME, LABEL_OPERATOR_NAME, LABEL_REPLICA_INDEX, LABEL_REPLICA_TYPE } from './types.js';

export function replicaName(jobName: string, type: string, index: number): string {
  return `${jobName}-${type.toLowerCase()}-${index}`.replace(/\//g, '-');
}

/** Kubeflow's operator-name label value: `pytorchjob-controller`, `tfjob-controller`. */
export function operatorName(framework: TrainingFramework): string {
  return `${framework.kind.toLowerCase()}-controller`;
}

/** The labels every pod and service of the job carries (job-name and operator-name). */
export function jobLabels(framework: TrainingFramework, job: Readonly<TrainingJob>): Record<string, string> {
  return { [LABEL_OPERATOR_NAME]: operatorName(framework), [LABEL_JOB_NAME]: job.metadata.name! };
}

export function replicaTypeLabels(framework: TrainingFramework, job: Readonly<TrainingJob>, type: string): Record<string, string> {
  return { ...jobLabels(framework, job), [LABEL_REPLICA_TYPE]: type.toLowerCase() };
}

export function replicaLabels(framework: TrainingFramework, job: Readonly<TrainingJob>, type: string, index: number): Record<string, string> {
  return { ...replicaTypeLabels(framework, job, type), [LABEL_REPLICA_INDEX]: String(index) };
}

export function selectorString(labels: Readonly<Record<string, string>>): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');
}

/** The job's replica specs in the framework's order of types (stable for ranks and ports). */
export function replicaSpecsOf(framework: TrainingFramework, job: Readonly<TrainingJob>): Array<[string, Readonly<ReplicaSpec>]> {
  const specs = (job.spec[framework.replicaSpecsField] ?? {}) as Record<string, ReplicaSpec>;
  return framework.replicaTypes.filter((t) => specs[t] !== undefined).map((t) => [t, specs[t]!]);
}

export function replicasOf(spec: Readonly<ReplicaSpec>): number {
  return spec.replicas ?? 1;
}

export function totalReplicas(framework: TrainingFramework, job: Readonly<TrainingJob>): number {
  return replicaSpecsOf(framework, job).reduce((sum, [, spec]) => sum + replicasOf(spec), 0);
}
