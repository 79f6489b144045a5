// The arithmetic of a PodDisruptionBudget, shared by the disruption controller (which writes the
// status) and the eviction subresource (which spends it). Kubernetes' rules, from
// pkg/controller/disruption and pkg/registry/core/pod/storage/eviction.go.
import type { KubeObject } from '../meta.js';
import type { Pod } from '../core/index.js';
import { isPodReady } from '../core/pod-conditions.js';

/**
 * How long an eviction's entry in status.disruptedPods keeps the pod out of the healthy count:
 * after that the controller assumes the deletion is not coming (Kubernetes' DeletionTimeout).
 */
export const DELETION_TIMEOUT_MS = 2 * 60 * 1000;

export type IntOrString = number | string;

export interface BudgetSpec {
  minAvailable?: IntOrString | null;
  maxUnavailable?: IntOrString | null;
  unhealthyPodEvictionPolicy?: string | null;
}

export interface BudgetStatus {
  observedGeneration?: number;
  disruptedPods?: Record<string, string>;
  disruptionsAllowed: number;
  currentHealthy: number;
  desiredHealthy: number;
  expectedPods: number;
  conditions?: BudgetCondition[];
}

export interface BudgetCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  observedGeneration?: number;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export const DISRUPTION_ALLOWED = 'DisruptionAllowed';

/** A budget's status, zeros where the controller has not written yet. */
export const budgetStatusOf = (pdb: Readonly<KubeObject>): BudgetStatus => ({
  disruptionsAllowed: 0,
  currentHealthy: 0,
  desiredHealthy: 0,
  expectedPods: 0,
  ...(pdb['status'] as object | undefined),
});

const isSet = <T>(value: T | null | undefined): value is T => value !== undefined && value !== null;

/**
 * An integer, or a percentage of `total` rounded up (intstr.GetScaledValueFromIntOrPercent with
 * roundUp: both bounds of a budget round up, the cautious way for minAvailable and the generous
 * one for maxUnavailable, as Kubernetes does).
 */
export function scaledValue(value: IntOrString, total: number): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+)%$/.exec(value);
  if (!match) throw new Error(`invalid value for IntOrString: invalid value "${value}"`);
  return Math.ceil((Number(match[1]) * total) / 100);
}

/**
 * Whether the budget needs the scale of the pods' controllers: a percentage, or any
 * maxUnavailable. An integer minAvailable counts the selected pods instead.
 */
export function needsControllerScale(spec: BudgetSpec): boolean {
  if (isSet(spec.maxUnavailable)) return true;
  return isSet(spec.minAvailable) && typeof spec.minAvailable === 'string';
}

/**
 * expectedPods and desiredHealthy of a budget. `selectedPods` is the number of pods the selector
 * matches; `controllerScale` sums the replicas of their controllers and throws when a pod's
 * controller cannot be found (the controller then fails safe). Neither bound set: 0 and 0.
 */
export function desiredHealth(spec: BudgetSpec, selectedPods: number, controllerScale: () => number): { expectedPods: number; desiredHealthy: number } {
  if (isSet(spec.maxUnavailable)) {
    const expectedPods = controllerScale();
    const desiredHealthy = Math.max(0, expectedPods - scaledValue(spec.maxUnavailable, expectedPods));
    return { expectedPods, desiredHealthy };
  }
  if (isSet(spec.minAvailable)) {
    if (typeof spec.minAvailable === 'number') return { expectedPods: selectedPods, desiredHealthy: spec.minAvailable };
    const expectedPods = controllerScale();
    return { expectedPods, desiredHealthy: scaledValue(spec.minAvailable, expectedPods) };
  }
  return { expectedPods: 0, desiredHealthy: 0 };
}

/**
 * What may be disrupted now. A budget that expects no pods allows nothing: its first pods may
 * appear before the controller has looked at them.
 */
export function disruptionsAllowed(currentHealthy: number, desiredHealthy: number, expectedPods: number): number {
  const allowed = currentHealthy - desiredHealthy;
  return expectedPods <= 0 || allowed <= 0 ? 0 : allowed;
}

const isTerminating = (pod: Readonly<KubeObject>) => isSet(pod.metadata.deletionTimestamp);

function evictedUntil(disruptedAt: string | undefined): number | undefined {
  if (disruptedAt === undefined) return undefined;
  const at = Date.parse(disruptedAt);
  return Number.isFinite(at) ? at + DELETION_TIMEOUT_MS : undefined;
}

/**
 * The disruptedPods entries still pending: pods that exist, are not being deleted yet, and were
 * evicted less than DELETION_TIMEOUT_MS ago. `recheckAt` is when the earliest of them expires;
 * `overdue` names pods whose deletion never came.
 */
export function pendingDisruptions(
  pods: readonly Readonly<KubeObject>[],
  disruptedPods: Readonly<Record<string, string>> | undefined,
  now: number,
): { pending: Record<string, string>; recheckAt?: number; overdue: string[] } {
  const pending: Record<string, string> = {};
  const overdue: string[] = [];
  let recheckAt: number | undefined;
  if (!disruptedPods) return { pending, overdue };
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    if (isTerminating(pod) || !Object.hasOwn(disruptedPods, name)) continue;
    const until = evictedUntil(disruptedPods[name]);
    if (until === undefined || until < now) {
      overdue.push(name);
      continue;
    }
    pending[name] = disruptedPods[name]!;
    if (recheckAt === undefined || until < recheckAt) recheckAt = until;
  }
  return recheckAt === undefined ? { pending, overdue } : { pending, recheckAt, overdue };
}

/** Pods that are Ready, not being deleted and not just evicted (countHealthyPods). */
export function countHealthy(pods: readonly Readonly<KubeObject>[], disruptedPods: Readonly<Record<string, string>>, now: number): number {
  let healthy = 0;
  for (const pod of pods) {
    if (isTerminating(pod)) continue;
    const until = evictedUntil(disruptedPods[pod.metadata.name ?? '']);
    if (until !== undefined && until > now) continue;
    // The registry holds only pods the API validated, so a stored pod has a Pod's shape.
    if (isPodReady(pod as Readonly<Pod>)) healthy++;
  }
  return healthy;
}

/**
 * The conditions with DisruptionAllowed set as meta.SetStatusCondition does: the transition
 * time moves only when the status changes.
 */
export function withDisruptionCondition(
  conditions: readonly BudgetCondition[] | undefined,
  wanted: Omit<BudgetCondition, 'lastTransitionTime'>,
  now: string,
): BudgetCondition[] {
  const others = (conditions ?? []).filter((c) => c.type !== wanted.type);
  const previous = (conditions ?? []).find((c) => c.type === wanted.type);
  const lastTransitionTime = previous && previous.status === wanted.status ? previous.lastTransitionTime : now;
  const condition: BudgetCondition = { type: wanted.type, status: wanted.status, lastTransitionTime, reason: wanted.reason, message: wanted.message };
  if (wanted.observedGeneration) condition.observedGeneration = wanted.observedGeneration;
  return [...others, condition];
}

/** DisruptionAllowed from the number of disruptions allowed (pdbhelper.UpdateDisruptionAllowedCondition). */
export function disruptionAllowedCondition(status: BudgetStatus, now: string): BudgetCondition[] {
  const allowed = status.disruptionsAllowed > 0;
  return withDisruptionCondition(
    status.conditions,
    {
      type: DISRUPTION_ALLOWED,
      status: allowed ? 'True' : 'False',
      reason: allowed ? 'SufficientPods' : 'InsufficientPods',
      message: '',
    },
    now,
  );
}
