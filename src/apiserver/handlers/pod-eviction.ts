// pods/eviction: a deletion that respects PodDisruptionBudgets, what `kubectl drain` calls. As
// Kubernetes' EvictionREST: a pod that no longer counts (pending, finished, already being
// deleted) goes at once; a pod covered by one budget goes only when the budget allows a
// disruption, which the eviction spends first; otherwise the client gets 429 and tries later.
import { isObject, type KubeObject } from '../../api/meta.js';
import { budgetStatusOf } from '../../api/disruption/budget.js';
import { isPodReady } from '../../api/core/pod-conditions.js';
import type { Pod } from '../../api/core/pod.js';
import { ApiError, badRequest } from '../errors.js';
import { writeJson } from '../http-io.js';
import type { DeleteOptions } from '../registry/deletion.js';
import { MAX_WRITE_RETRIES } from '../registry/write-retries.js';
import { parseDryRun, type ResourceRequest } from './context.js';
import { budgetsCovering, spendDisruption, specOf, tooManyBudgets } from './eviction-budget.js';
import { decodeNamedBody, success } from './pod-binding.js';

/** How the pod may be deleted: as asked, or only if it has not changed since it was judged. */
type Verdict = 'delete' | 'delete-if-unchanged';

function deleteOptionsOf(ctx: ResourceRequest, eviction: Record<string, unknown>): DeleteOptions {
  const given = isObject(eviction['deleteOptions']) ? eviction['deleteOptions'] : {};
  const options: DeleteOptions = { dryRun: parseDryRun(ctx.query) || (Array.isArray(given['dryRun']) && given['dryRun'].includes('All')) };
  if (typeof given['gracePeriodSeconds'] === 'number') options.gracePeriodSeconds = Math.max(0, given['gracePeriodSeconds']);
  if (isObject(given['preconditions'])) options.preconditions = { ...(given['preconditions'] as DeleteOptions['preconditions'] & object) };
  return options;
}

/** A pod that is not running (or already going) disrupts nothing more: budgets do not apply (canIgnorePDB). */
function budgetsDoNotApply(pod: Readonly<KubeObject>): boolean {
  const phase = isObject(pod['status']) ? pod['status']['phase'] : undefined;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined;
}

async function judge(ctx: ResourceRequest, pod: KubeObject, dryRun: boolean): Promise<Verdict> {
  if (budgetsDoNotApply(pod)) return 'delete-if-unchanged';
  const covering = await budgetsCovering(ctx.registry, pod);
  if (covering.length > 1) throw tooManyBudgets();
  const pdb = covering[0];
  if (!pdb) return 'delete';
  if (!isPodReady(pod as Readonly<Pod>)) {
    // An unhealthy pod does not count towards the budget, so evicting it spends nothing: always
    // under AlwaysAllow, and under IfHealthyBudget (the default) while the budget is met.
    if (specOf(pdb).unhealthyPodEvictionPolicy === 'AlwaysAllow') return 'delete-if-unchanged';
    const status = budgetStatusOf(pdb);
    if (status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0) return 'delete-if-unchanged';
  }
  await spendDisruption({ registry: ctx.registry, pdb, podName: pod.metadata.name!, dryRun, user: ctx.user });
  return 'delete';
}

export async function evictPod(ctx: ResourceRequest): Promise<void> {
  if (ctx.req.method !== 'POST') throw badRequest('pods/eviction only supports POST');
  const options = deleteOptionsOf(ctx, await decodeNamedBody(ctx, 'Eviction'));
  // The client's own resourceVersion precondition is its to retry, not ours.
  const clientPrecondition = options.preconditions?.resourceVersion !== undefined;
  for (let attempt = 0; ; attempt++) {
    const pod = await ctx.registry.get(ctx.def, ctx.path.namespace, ctx.path.name!);
    const verdict = await judge(ctx, pod, options.dryRun);
    const guarded = verdict === 'delete-if-unchanged' && !clientPrecondition;
    const deleteOptions = guarded ? { ...options, preconditions: { ...options.preconditions, resourceVersion: pod.metadata.resourceVersion! } } : options;
    try {
      await ctx.registry.delete(ctx.def, ctx.path.namespace, ctx.path.name!, deleteOptions);
      break;
    } catch (error) {
      // The pod changed after it was judged (it became ready, say): judge it again.
      if (!guarded || !(error instanceof ApiError) || error.code !== 409 || attempt >= MAX_WRITE_RETRIES) throw error;
    }
  }
  writeJson(ctx.res, 201, success(201));
}
