// The status a disruption budget should have, from the pods it selects now: Kubernetes'
// disruption controller's trySync, without the I/O.
import type { KubeObject } from '../../api/meta.js';
import {
  budgetStatusOf,
  countHealthy,
  desiredHealth,
  DISRUPTION_ALLOWED,
  disruptionAllowedCondition,
  disruptionsAllowed,
  pendingDisruptions,
  withDisruptionCondition,
  type BudgetSpec,
  type BudgetStatus,
} from '../../api/disruption/budget.js';
import { expectedScale, type ScaleSources } from './expected-scale.js';

export interface ComputedStatus {
  status: BudgetStatus;
  /** When an entry of disruptedPods expires and the budget must be looked at again. */
  recheckAt?: number;
  /** Evicted pods whose deletion never came (dropped from disruptedPods). */
  overdue: string[];
  /** Selected pods without a controller, left out of expectedPods. */
  unmanaged: string[];
}

/** Throws when the pods' controllers cannot be sized; the caller then fails safe (failSafeStatus). */
export function computeStatus(pdb: Readonly<KubeObject>, pods: readonly Readonly<KubeObject>[], sources: ScaleSources, now: Date): ComputedStatus {
  const spec = (pdb['spec'] ?? {}) as BudgetSpec;
  const previous = budgetStatusOf(pdb);
  let unmanaged: string[] = [];
  const { expectedPods, desiredHealthy } = desiredHealth(spec, pods.length, () => {
    const scale = expectedScale(sources, pods);
    unmanaged = scale.unmanaged;
    return scale.expected;
  });
  const { pending, recheckAt, overdue } = pendingDisruptions(pods, previous.disruptedPods, now.getTime());
  const currentHealthy = countHealthy(pods, pending, now.getTime());
  const status: BudgetStatus = {
    disruptionsAllowed: disruptionsAllowed(currentHealthy, desiredHealthy, expectedPods),
    currentHealthy,
    desiredHealthy,
    expectedPods,
  };
  if (pdb.metadata.generation !== undefined) status.observedGeneration = pdb.metadata.generation;
  if (Object.keys(pending).length > 0) status.disruptedPods = pending;
  if (previous.conditions) status.conditions = previous.conditions;
  status.conditions = disruptionAllowedCondition(status, now.toISOString().replace(/\.\d+Z$/, 'Z'));
  const computed: ComputedStatus = { status, overdue, unmanaged };
  if (recheckAt !== undefined) computed.recheckAt = recheckAt;
  return computed;
}

/** No disruption allowed while the budget cannot be computed, and why (failSafe). */
export function failSafeStatus(pdb: Readonly<KubeObject>, reason: string, now: Date): BudgetStatus {
  const previous = budgetStatusOf(pdb);
  const status: BudgetStatus = { ...previous, disruptionsAllowed: 0 };
  const wanted = { type: DISRUPTION_ALLOWED, status: 'False' as const, reason: 'SyncFailed', message: reason };
  status.conditions = withDisruptionCondition(
    previous.conditions,
    previous.observedGeneration ? { ...wanted, observedGeneration: previous.observedGeneration } : wanted,
    now.toISOString().replace(/\.\d+Z$/, 'Z'),
  );
  return status;
}
