// A Deployment's status: counts summed over its ReplicaSets, and the Available and Progressing
// conditions with the reasons kubectl reads (`rollout status` stops on ProgressDeadlineExceeded).
import { metaTime } from '../../api/meta.js';
import type { Condition, ReplicaSet } from '../replicaset/types.js';
import { desiredReplicas, maxUnavailable, sumStatus } from './replica-math.js';
import { AVAILABLE, PROGRESSING, reasons, type Deployment, type DeploymentStatus } from './types.js';
import { jsonEqual } from '../../util/json-equal.js';

export function getCondition(status: Readonly<DeploymentStatus> | undefined, type: string): Readonly<Condition> | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

export function newCondition(type: string, status: Condition['status'], reason: string, message: string, now = Date.now()): Condition {
  const at = metaTime(new Date(now));
  return { type, status, lastUpdateTime: at, lastTransitionTime: at, reason, message };
}

/**
 * Sets a condition as Kubernetes does: nothing changes when status and reason are the same;
 * the transition time is kept when only the reason changes.
 */
export function setCondition(status: DeploymentStatus, condition: Condition): void {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return;
  const next = { ...condition };
  if (current && current.status === condition.status && current.lastTransitionTime) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  if (status.conditions?.some((c) => c.type === type)) status.conditions = status.conditions.filter((c) => c.type !== type);
}

export function calculateStatus(
  allRSs: readonly Readonly<ReplicaSet>[],
  newRS: Readonly<ReplicaSet> | undefined,
  d: Readonly<Deployment>,
  now = Date.now(),
): DeploymentStatus {
  const available = sumStatus(allRSs, 'availableReplicas');
  const total = sumStatus(allRSs, 'replicas');
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation ?? 0,
    replicas: total,
    updatedReplicas: sumStatus([newRS], 'replicas'),
    readyReplicas: sumStatus(allRSs, 'readyReplicas'),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
    conditions: (d.status?.conditions ?? []).map((c) => ({ ...c })),
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (available >= desiredReplicas(d) - maxUnavailable(d)) {
    setCondition(status, newCondition(AVAILABLE, 'True', reasons.minimumAvailable, 'Deployment has minimum availability.', now));
  } else {
    setCondition(status, newCondition(AVAILABLE, 'False', reasons.minimumUnavailable, 'Deployment does not have minimum availability.', now));
  }
  return status;
}

export function hasProgressDeadline(d: Readonly<Deployment>): boolean {
  const deadline = d.spec.progressDeadlineSeconds;
  return deadline !== undefined && deadline !== 2147483647;
}

/** Every replica updated and available, and the latest spec observed. */
export function deploymentComplete(d: Readonly<Deployment>, status: Readonly<DeploymentStatus>): boolean {
  const desired = desiredReplicas(d);
  return (
    (status.updatedReplicas ?? 0) === desired &&
    (status.replicas ?? 0) === desired &&
    (status.availableReplicas ?? 0) === desired &&
    (status.observedGeneration ?? 0) >= (d.metadata.generation ?? 0)
  );
}

/** The new status shows progress over the stored one: more updated, ready or available, or fewer old. */
export function deploymentProgressing(d: Readonly<Deployment>, next: Readonly<DeploymentStatus>): boolean {
  const old = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (next.replicas ?? 0) - (next.updatedReplicas ?? 0);
  return (
    (next.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (next.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (next.availableReplicas ?? 0) > (old.availableReplicas ?? 0)
  );
}

/** Ms until the progress deadline passes (≤ 0: passed); undefined when no deadline applies. */
export function msUntilDeadline(d: Readonly<Deployment>, status: Readonly<DeploymentStatus>, now = Date.now()): number | undefined {
  if (!hasProgressDeadline(d)) return undefined;
  const condition = getCondition(status, PROGRESSING);
  if (!condition || condition.reason === reasons.newRSAvailable || condition.reason === reasons.timedOut) return undefined;
  const from = Date.parse(condition.lastUpdateTime ?? '');
  if (Number.isNaN(from)) return undefined;
  return from + (d.spec.progressDeadlineSeconds ?? 0) * 1000 - now;
}

export function deploymentTimedOut(d: Readonly<Deployment>, status: Readonly<DeploymentStatus>, now = Date.now()): boolean {
  if (getCondition(status, PROGRESSING)?.reason === reasons.timedOut) return hasProgressDeadline(d);
  const left = msUntilDeadline(d, status, now);
  return left !== undefined && left < 0;
}

function normalized(status: Readonly<DeploymentStatus> | undefined): unknown[] {
  const s = status ?? {};
  return [
    s.observedGeneration ?? 0,
    s.replicas ?? 0,
    s.updatedReplicas ?? 0,
    s.readyReplicas ?? 0,
    s.availableReplicas ?? 0,
    s.unavailableReplicas ?? 0,
    s.collisionCount ?? null,
    s.conditions ?? [],
  ];
}

export function statusEqual(a: Readonly<DeploymentStatus> | undefined, b: Readonly<DeploymentStatus> | undefined): boolean {
  return jsonEqual(normalized(a), normalized(b));
}
