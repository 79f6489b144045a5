// The parts of apps/v1 ReplicaSet the workload controllers read and write (pods: src/api/core).
// Objects come from the API, which validated and defaulted them, so their shape is trusted.
import type { KubeObject } from '../../api/meta.js';
import type { LabelSelectorObject } from '../../api/selectors/index.js';
import type { PodTemplateSpec } from '../../api/core/index.js';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
}

export interface ReplicaSetStatus {
  replicas?: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  conditions?: Condition[];
}

export interface ReplicaSet extends KubeObject {
  spec: {
    replicas?: number;
    minReadySeconds?: number;
    selector: LabelSelectorObject;
    template?: PodTemplateSpec;
  };
  status?: ReplicaSetStatus;
}
