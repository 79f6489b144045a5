// PodDisruptionBudgets as preemption weighs them (kube-scheduler's filterPodsWithPDBViolation):
// preemption deletes its victims directly, not through the eviction API, so a budget cannot stop
// it; but among candidate nodes the one whose victims break the fewest budgets is preferred, and
// on a node the victims that would break one are the first offered a reprieve.
import type { KubeObject } from '../../api/meta.js';
import { selectorIsEmpty, selectorMatches } from '../../api/validation/util.js';
import type { PodInfo } from '../pod-info.js';

export interface DisruptionBudget {
  readonly namespace: string;
  readonly selector: unknown;
  readonly disruptionsAllowed: number;
  /** Pods the eviction API already counted against the budget. */
  readonly disrupted: ReadonlySet<string>;
}

export function budgetOf(pdb: KubeObject): DisruptionBudget {
  const spec = (pdb['spec'] ?? {}) as { selector?: unknown };
  const status = (pdb['status'] ?? {}) as { disruptionsAllowed?: unknown; disruptedPods?: unknown };
  const disrupted = typeof status.disruptedPods === 'object' && status.disruptedPods !== null ? Object.keys(status.disruptedPods) : [];
  return {
    namespace: pdb.metadata.namespace ?? '',
    selector: spec.selector,
    disruptionsAllowed: typeof status.disruptionsAllowed === 'number' ? status.disruptionsAllowed : 0,
    disrupted: new Set(disrupted),
  };
}

/**
 * Splits pods into those whose removal, in this order, would take some budget below zero and
 * those that would not. A budget with an empty selector covers nothing here, as in Kubernetes.
 */
export function splitByBudgetViolation(pods: readonly PodInfo[], budgets: readonly DisruptionBudget[]): { violating: PodInfo[]; safe: PodInfo[] } {
  const allowed = budgets.map((b) => b.disruptionsAllowed);
  const violating: PodInfo[] = [];
  const safe: PodInfo[] = [];
  for (const pod of pods) {
    let breaks = false;
    budgets.forEach((budget, i) => {
      if (budget.namespace !== pod.namespace || selectorIsEmpty(budget.selector) || !selectorMatches(budget.selector, pod.labels)) return;
      if (budget.disrupted.has(pod.name)) return;
      allowed[i]!--;
      if (allowed[i]! < 0) breaks = true;
    });
    (breaks ? violating : safe).push(pod);
  }
  return { violating, safe };
}
