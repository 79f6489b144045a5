// What the API needs to know of each training framework (kubeflow.org/v1): the field holding its
// replica specs, its replica types, the container that must exist and the port it gets by
// default. The job controller's framework interfaces (src/controllers/training/) build on these.
import { PYTORCH_REPLICA_TYPES, TF_REPLICA_TYPES } from './schemas/training.js';

/** The label Kubeflow puts on every pod and Service of a training job: the job's name. */
export const TRAINING_JOB_NAME_LABEL = 'training.kubeflow.org/job-name';

export interface TrainingFramework {
  readonly kind: 'PyTorchJob' | 'TFJob';
  /** spec.<replicaSpecsField>: the map of replica type → ReplicaSpec. */
  readonly replicaSpecsField: 'pytorchReplicaSpecs' | 'tfReplicaSpecs';
  readonly replicaTypes: readonly string[];
  /** The container of every replica that runs the framework (and gets the default port). */
  readonly containerName: string;
  readonly portName: string;
  readonly defaultPort: number;
  readonly defaultRestartPolicy: 'OnFailure' | 'Never';
  /** Replica types whose template gets the default port when it declares none. */
  readonly portedTypes: readonly string[];
}

export const PYTORCH: TrainingFramework = {
  kind: 'PyTorchJob',
  replicaSpecsField: 'pytorchReplicaSpecs',
  replicaTypes: PYTORCH_REPLICA_TYPES,
  containerName: 'pytorch',
  portName: 'pytorchjob-port',
  defaultPort: 23456,
  defaultRestartPolicy: 'OnFailure',
  // Kubeflow ports only the Master: workers dial it, nobody dials a worker.
  portedTypes: ['Master'],
};

export const TENSORFLOW: TrainingFramework = {
  kind: 'TFJob',
  replicaSpecsField: 'tfReplicaSpecs',
  replicaTypes: TF_REPLICA_TYPES,
  containerName: 'tensorflow',
  portName: 'tfjob-port',
  defaultPort: 2222,
  defaultRestartPolicy: 'Never',
  // Every TF replica is in every other's TF_CONFIG.
  portedTypes: TF_REPLICA_TYPES,
};

export const TRAINING_FRAMEWORKS: readonly TrainingFramework[] = [PYTORCH, TENSORFLOW];

export function frameworkOfKind(kind: string): TrainingFramework | undefined {
  return TRAINING_FRAMEWORKS.find((f) => f.kind === kind);
}

/** The canonical spelling of a replica type written in any case ("worker" → "Worker"), as Kubeflow accepts. */
export function canonicalReplicaType(framework: TrainingFramework, written: string): string | undefined {
  const lower = written.toLowerCase();
  return framework.replicaTypes.find((t) => t.toLowerCase() === lower);
}
