// The parts of apps/v1 Deployment the controller reads and writes, and the well-known names it
// shares with kubectl (annotations, the pod-template-hash label, condition reasons).
import type { KubeObject } from '../../api/meta.js';
import type { LabelSelectorObject } from '../../api/selectors/index.js';
import type { Condition } from '../replicaset/types.js';
import type { PodTemplateSpec } from '../../api/core/index.js';

export type IntOrPercent = number | string;

export interface DeploymentSpec {
  replicas?: number;
  selector: LabelSelectorObject;
  template: PodTemplateSpec;
  strategy?: {
    type?: 'Recreate' | 'RollingUpdate';
    rollingUpdate?: { maxSurge?: IntOrPercent; maxUnavailable?: IntOrPercent };
  };
  minReadySeconds?: number;
  revisionHistoryLimit?: number;
  paused?: boolean;
  progressDeadlineSeconds?: number;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  conditions?: Condition[];
  collisionCount?: number;
}

export interface Deployment extends KubeObject {
  spec: DeploymentSpec;
  status?: DeploymentStatus;
}

export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
export const ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';
export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

/** Condition types and the reasons kubectl and users look for. */
export const AVAILABLE = 'Available';
export const PROGRESSING = 'Progressing';
export const REPLICA_FAILURE = 'ReplicaFailure';

export const reasons = {
  newRSCreated: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  newRSAvailable: 'NewReplicaSetAvailable',
  rsUpdated: 'ReplicaSetUpdated',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  minimumAvailable: 'MinimumReplicasAvailable',
  minimumUnavailable: 'MinimumReplicasUnavailable',
  failedRSCreate: 'ReplicaSetCreateError',
} as const;
