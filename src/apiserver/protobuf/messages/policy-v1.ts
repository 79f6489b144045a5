// policy/v1 Eviction and PodDisruptionBudget (api/policy/v1/generated.proto).
import { condition, deleteOptions, labelSelector, objectMeta } from './meta-v1.js';
import { ALWAYS, i32, i64, intOrString, map, message, msg, PTR, REP, str } from './schema.js';

export const eviction = message('Eviction', { 1: msg('metadata', objectMeta), 2: msg('deleteOptions', deleteOptions) });

const podDisruptionBudgetSpec = message('PodDisruptionBudgetSpec', {
  1: intOrString('minAvailable'),
  2: msg('selector', labelSelector),
  3: intOrString('maxUnavailable'),
  4: str('unhealthyPodEvictionPolicy', PTR),
});

const podDisruptionBudgetStatus = message('PodDisruptionBudgetStatus', {
  1: i64('observedGeneration'),
  2: map('disruptedPods', 'time'),
  3: i32('disruptionsAllowed', ALWAYS),
  4: i32('currentHealthy', ALWAYS),
  5: i32('desiredHealthy', ALWAYS),
  6: i32('expectedPods', ALWAYS),
  7: msg('conditions', condition, REP),
});

export const podDisruptionBudget = message('PodDisruptionBudget', {
  1: msg('metadata', objectMeta),
  2: msg('spec', podDisruptionBudgetSpec),
  3: msg('status', podDisruptionBudgetStatus),
});
