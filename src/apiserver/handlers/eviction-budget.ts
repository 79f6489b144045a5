// The eviction subresource's side of PodDisruptionBudgets (Kubernetes' EvictionREST): which
// budget covers a pod, and spending one disruption of it. Spending is one status write of the
// budget with its resourceVersion as precondition, so two evictions racing for the last
// disruption cannot both win: the loser re-reads the budget and finds nothing left.
import { findResource } from '../../api/registry.js';
import type { KubeObject } from '../../api/meta.js';
import { fromLabelSelectorObject } from '../../api/selectors/index.js';
import { budgetStatusOf, disruptionAllowedCondition, type BudgetSpec, type BudgetStatus } from '../../api/disruption/budget.js';
import { ApiError, forbidden, internalError, type StatusDetails } from '../errors.js';
import { timestamp } from '../registry/metadata.js';
import type { ObjectRegistry } from '../registry/object-registry.js';
import type { UserInfo } from '../../auth/types.js';

export const budgets = findResource('policy', 'v1', 'poddisruptionbudgets')!;

/** Kubernetes' EvictionsRetry: 20 tries at the budget before the conflict goes to the client. */
const EVICTION_RETRIES = 20;
/** Beyond this many unconfirmed evictions the budget refuses more (MaxDisruptedPodSize). */
const MAX_DISRUPTED_PODS = 2000;

const TOO_MANY = "Cannot evict pod as it would violate the pod's disruption budget.";

function tooManyRequests(cause: string, retryAfterSeconds: number): ApiError {
  const details: StatusDetails = { causes: [{ reason: 'DisruptionBudget', message: cause }] };
  if (retryAfterSeconds > 0) details.retryAfterSeconds = retryAfterSeconds;
  return new ApiError(429, 'TooManyRequests', TOO_MANY, details);
}

export const specOf = (pdb: Readonly<KubeObject>) => (pdb['spec'] ?? {}) as BudgetSpec & { selector?: unknown };

/**
 * The budgets whose selector matches the pod. Unlike the controller, the eviction treats a
 * missing or empty selector as matching nothing, and skips a selector it cannot parse.
 */
export async function budgetsCovering(registry: ObjectRegistry, pod: Readonly<KubeObject>): Promise<KubeObject[]> {
  const { items } = await registry.collection(budgets, pod.metadata.namespace).list();
  return items.filter((pdb) => {
    try {
      const selector = fromLabelSelectorObject(specOf(pdb).selector as Record<string, unknown> | undefined);
      return !selector.isEmpty() && selector.matches(pod.metadata.labels);
    } catch {
      return false;
    }
  });
}

export function tooManyBudgets(): ApiError {
  return internalError('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
}

export interface SpendRequest {
  registry: ObjectRegistry;
  pdb: KubeObject;
  podName: string;
  dryRun: boolean;
  user: UserInfo;
}

/**
 * Takes one disruption from the budget for `podName`, re-reading the budget after a lost race;
 * throws 429 when none is left (checkAndDecrement, retried on conflict).
 */
export async function spendDisruption(request: SpendRequest): Promise<void> {
  let pdb = request.pdb;
  for (let attempt = 0; ; attempt++) {
    const updated = withOneDisruptionSpent(pdb, request.podName);
    if (request.dryRun) return;
    try {
      await request.registry.update(budgets, pdb.metadata.namespace, pdb.metadata.name!, updated, {
        dryRun: false,
        fieldManager: '',
        fieldValidation: 'Ignore',
        subresource: 'status',
        user: request.user,
      });
      return;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 409 || attempt + 1 >= EVICTION_RETRIES) throw error;
      pdb = await request.registry.get(budgets, pdb.metadata.namespace, pdb.metadata.name!);
    }
  }
}

/** The budget with one disruption less and the pod recorded as disrupted; throws when it cannot give one. */
function withOneDisruptionSpent(pdb: KubeObject, podName: string): KubeObject {
  const name = pdb.metadata.name ?? '';
  const status = budgetStatusOf(pdb);
  // A spec the controller has not looked at yet may allow less than the status says.
  if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) {
    throw tooManyRequests(`The disruption budget ${name} is still being processed by the server.`, 10);
  }
  if (status.disruptionsAllowed < 0) throw forbidden(`poddisruptionbudgets.policy "${name}" is forbidden: pdb disruptions allowed is negative`);
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS) {
    throw forbidden(`poddisruptionbudgets.policy "${name}" is forbidden: DisruptedPods map too big - too many evictions not confirmed by PDB controller`);
  }
  if (status.disruptionsAllowed === 0) {
    throw tooManyRequests(`The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`, 0);
  }
  const spent: BudgetStatus = { ...status, disruptionsAllowed: status.disruptionsAllowed - 1 };
  if (spent.disruptionsAllowed === 0) spent.conditions = disruptionAllowedCondition(spent, timestamp());
  spent.disruptedPods = { ...(status.disruptedPods ?? {}), [podName]: timestamp() };
  // The read resourceVersion stays on the object: the write is conditional on it.
  return { ...pdb, status: spent };
}
