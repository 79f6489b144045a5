// A StatefulSet's status from its pods (Kubernetes' computeReplicaStatus and
// completeRollingUpdate): counts by readiness and revision; once every pod is updated and
// ready, a RollingUpdate's update revision becomes the current one.
import { isRunningAndAvailable, isRunningAndReady, isTerminating } from './pod-health.js';
import { REVISION_LABEL, type StatefulSet, type StatefulSetStatus } from './types.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { Pod } from '../../api/core/index.js';

export interface StatusInput {
  set: Readonly<StatefulSet>;
  pods: readonly Readonly<Pod>[];
  currentRevision: string;
  updateRevision: string;
  collisionCount: number;
  now: number;
}

export function computeStatus(input: StatusInput): StatefulSetStatus {
  const minReadySeconds = input.set.spec.minReadySeconds ?? 0;
  const status: StatefulSetStatus = {
    replicas: 0,
    readyReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    availableReplicas: 0,
    currentRevision: input.currentRevision,
    updateRevision: input.updateRevision,
    collisionCount: input.collisionCount,
  };
  if (input.set.metadata.generation !== undefined) status.observedGeneration = input.set.metadata.generation;
  for (const pod of input.pods) {
    status.replicas++;
    if (isRunningAndReady(pod)) {
      status.readyReplicas++;
      if (isRunningAndAvailable(pod, minReadySeconds, input.now)) status.availableReplicas++;
    }
    if (isTerminating(pod)) continue;
    const revision = pod.metadata.labels?.[REVISION_LABEL];
    if (revision === input.currentRevision) status.currentReplicas++;
    if (revision === input.updateRevision) status.updatedReplicas++;
  }
  const rolling = (input.set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate';
  if (rolling && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
    status.currentReplicas = status.updatedReplicas;
    status.currentRevision = status.updateRevision;
  }
  if (input.set.status?.conditions?.length) status.conditions = input.set.status.conditions;
  return status;
}

const FIELDS = [
  'observedGeneration',
  'replicas',
  'readyReplicas',
  'currentReplicas',
  'updatedReplicas',
  'availableReplicas',
  'currentRevision',
  'updateRevision',
  'collisionCount',
] as const;

export function statusChanged(old: Readonly<Partial<StatefulSetStatus>> | undefined, next: StatefulSetStatus): boolean {
  return FIELDS.some((key) => !jsonEqual(old?.[key] ?? null, next[key] ?? null));
}
