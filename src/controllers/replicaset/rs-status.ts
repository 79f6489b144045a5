// A ReplicaSet's status, computed from the pods it controls, and the one condition it carries
// (ReplicaFailure, while creating or deleting pods fails).
import { metaTime } from '../../api/meta.js';
import { isPodAvailable, isPodReady } from '../../api/core/pod-conditions.js';
import type { Condition, ReplicaSet, ReplicaSetStatus } from './types.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { Pod } from '../../api/core/index.js';

export interface ManageError {
  reason: 'FailedCreate' | 'FailedDelete';
  message: string;
}

function hasAllLabels(pod: Readonly<Pod>, labels: Readonly<Record<string, string>>): boolean {
  const podLabels = pod.metadata.labels ?? {};
  for (const key in labels) if (podLabels[key] !== labels[key]) return false;
  return true;
}

/** The status for `activePods` (the pods claimed, neither terminating nor finished). */
export function calculateReplicaSetStatus(
  rs: Readonly<ReplicaSet>,
  activePods: readonly Readonly<Pod>[],
  manageError: ManageError | undefined,
  now = Date.now(),
): ReplicaSetStatus {
  const templateLabels = rs.spec.template?.metadata?.labels ?? {};
  const minReadySeconds = rs.spec.minReadySeconds ?? 0;
  let fullyLabeled = 0;
  let ready = 0;
  let available = 0;
  for (const pod of activePods) {
    if (hasAllLabels(pod, templateLabels)) fullyLabeled++;
    if (isPodReady(pod)) {
      ready++;
      if (isPodAvailable(pod, minReadySeconds, now)) available++;
    }
  }
  const status: ReplicaSetStatus = {
    replicas: activePods.length,
    fullyLabeledReplicas: fullyLabeled,
    readyReplicas: ready,
    availableReplicas: available,
    observedGeneration: rs.metadata.generation ?? 0,
  };
  const others = (rs.status?.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
  const failure = rs.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
  if (manageError) {
    // An existing failure condition is kept as it is, as Kubernetes does.
    const condition: Condition = failure ?? {
      type: 'ReplicaFailure',
      status: 'True',
      reason: manageError.reason,
      message: manageError.message,
      lastTransitionTime: metaTime(new Date(now)),
    };
    status.conditions = [...others, condition];
  } else if (others.length > 0) {
    status.conditions = others;
  }
  return status;
}

/** True when writing `next` would change what is stored. */
export function statusChanged(current: Readonly<ReplicaSetStatus> | undefined, next: ReplicaSetStatus): boolean {
  const c = current ?? {};
  return (
    (c.replicas ?? 0) !== next.replicas ||
    (c.fullyLabeledReplicas ?? 0) !== next.fullyLabeledReplicas ||
    (c.readyReplicas ?? 0) !== next.readyReplicas ||
    (c.availableReplicas ?? 0) !== next.availableReplicas ||
    c.observedGeneration !== next.observedGeneration ||
    !jsonEqual(c.conditions ?? [], next.conditions ?? [])
  );
}

/** A merge patch that sets `next` in full (null removes conditions no longer present). */
export function statusPatch(next: ReplicaSetStatus): { status: Record<string, unknown> } {
  return { status: { ...next, conditions: next.conditions ?? null } };
}
