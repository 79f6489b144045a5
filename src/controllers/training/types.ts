// The parts of kubeflow.org/v1 training jobs (PyTorchJob, TFJob) the training-job controller
// reads and writes, and the labels Kubeflow puts on their pods and services.
import type { KubeObject } from '../../api/meta.js';
import { sharesNodeNetwork } from '../../api/pod-network.js';
import type { PodTemplateSpec } from '../../api/core/index.js';

export { TRAINING_JOB_NAME_LABEL as LABEL_JOB_NAME } from '../../api/training-frameworks.js';
export const LABEL_REPLICA_TYPE = 'training.kubeflow.org/replica-type';
export const LABEL_REPLICA_INDEX = 'training.kubeflow.org/replica-index';
export const LABEL_JOB_ROLE = 'training.kubeflow.org/job-role';
export const LABEL_OPERATOR_NAME = 'training.kubeflow.org/operator-name';

export type ReplicaRestartPolicy = 'Always' | 'OnFailure' | 'Never' | 'ExitCode';
export type CleanPodPolicy = 'All' | 'Running' | 'None';

export interface ReplicaSpec {
  replicas?: number;
  template?: PodTemplateSpec;
  restartPolicy?: ReplicaRestartPolicy;
}

export interface SchedulingPolicy {
  minAvailable?: number;
  queue?: string;
  minResources?: Record<string, string | number>;
  priorityClass?: string;
  scheduleTimeoutSeconds?: number;
}

export interface RunPolicy {
  cleanPodPolicy?: CleanPodPolicy;
  ttlSecondsAfterFinished?: number;
  activeDeadlineSeconds?: number;
  backoffLimit?: number;
  schedulingPolicy?: SchedulingPolicy;
  suspend?: boolean;
  managedBy?: string;
  restartScope?: 'Replica' | 'Gang';
}

export type ConditionType = 'Created' | 'Running' | 'Restarting' | 'Succeeded' | 'Suspended' | 'Failed';

export interface JobCondition {
  type: ConditionType;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

export interface ReplicaStatus {
  active?: number;
  succeeded?: number;
  failed?: number;
  labelSelector?: { matchLabels?: Record<string, string> };
  selector?: string;
}

export interface TrainingJobStatus {
  conditions?: JobCondition[];
  replicaStatuses?: Record<string, ReplicaStatus>;
  startTime?: string;
  completionTime?: string;
  lastReconcileTime?: string;
  restarts?: number;
}

export interface TrainingJobSpec {
  runPolicy?: RunPolicy;
  pytorchReplicaSpecs?: Record<string, ReplicaSpec>;
  tfReplicaSpecs?: Record<string, ReplicaSpec>;
  /** PyTorchJob */
  nprocPerNode?: string;
  elasticPolicy?: { minReplicas?: number; maxReplicas?: number; [field: string]: unknown };
  /** TFJob */
  successPolicy?: '' | 'AllWorkers';
  enableDynamicWorker?: boolean;
  [field: string]: unknown;
}

export interface TrainingJob extends KubeObject {
  spec: TrainingJobSpec;
  status?: TrainingJobStatus;
}

export function isHostNetworkTemplate(template: Readonly<PodTemplateSpec> | undefined): boolean {
  return sharesNodeNetwork(template?.spec);
}
