// scheduling.x-k8s.io/v1alpha1 PodGroup as the code reads and writes it (its schema, with the
// field documentation, is api/schemas/scheduling.ts). The training-job controller writes the
// spec; the scheduler alone writes the status.
import type { KubeObject } from '../meta.js';
import type { POD_GROUP_PHASES } from '../schemas/scheduling.js';

export interface PodGroupSpec {
  minMember: number;
  minResources?: Record<string, string | number>;
  scheduleTimeoutSeconds?: number;
}

export type PodGroupPhase = (typeof POD_GROUP_PHASES)[number];

export interface PodGroupCondition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

export interface PodGroupStatus {
  phase: PodGroupPhase;
  occupiedBy?: string;
  scheduled: number;
  running: number;
  succeeded: number;
  failed: number;
  scheduleStartTime?: string;
  conditions?: PodGroupCondition[];
}

export interface PodGroup extends KubeObject {
  spec: PodGroupSpec;
  status?: PodGroupStatus;
}
